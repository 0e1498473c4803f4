import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ours from './semconv.js';

const NAMES = Object.entries(ours).filter(([key]) => key.startsWith('ATTR_') || key.startsWith('EVENT_') || key.includes('_VALUE_'));

describe('the attribute names the OTLP export sends', () => {
  it.each(NAMES)('%s is the name @opentelemetry/semantic-conventions/incubating defines', (key, value) => {
    expect((incubating as Record<string, unknown>)[key]).toBe(value);
  });

  it('were checked against the pinned package version', () => {
    // The package exports no package.json; its main file sits in dist/, one level below it.
    const main = createRequire(import.meta.url).resolve('@opentelemetry/semantic-conventions');
    const installed = (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
    expect(installed).toBe(ours.SEMCONV_PACKAGE_VERSION);
    expect(NAMES.length).toBeGreaterThan(20);
  });
});
