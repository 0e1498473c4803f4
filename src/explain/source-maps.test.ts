import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../test/child-env.js';
import { classifyFrame, parseStack } from './frames.js';
import { createSourceMapResolver } from './source-maps.js';

const APP = fileURLToPath(new URL('../../fixtures/breakable-app', import.meta.url));
const COMPILED = `${APP}/dist/lib/slug.js`;
const SOURCE = `${APP}/src/lib/slug.ts`;

describe('source maps', () => {
  it('the compiled fixture is built from the TypeScript beside it (its map carries that exact source)', () => {
    const map = JSON.parse(readFileSync(`${COMPILED}.map`, 'utf8')) as { sources: string[]; sourcesContent: string[] };
    expect(map.sources).toEqual(['../../src/lib/slug.ts']);
    expect(map.sourcesContent[0]).toBe(readFileSync(SOURCE, 'utf8'));
  });

  it('resolves a real stack from the compiled JavaScript, thrown in a plain Node process, to the .ts file and line', async () => {
    // A child process without source-map support: its stack names dist/lib/slug.js.
    const script = `import(${JSON.stringify(COMPILED)}).then((m) => { try { m.slugify(undefined); } catch (error) { process.stdout.write(error.stack); } });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: childEnv() });
    const parsed = parseStack(Object.assign(new Error('x'), { stack: stdout }));
    expect(parsed.frames[0]).toMatchObject({ functionName: 'Module.slugify', file: COMPILED, line: 3 });
    const resolver = createSourceMapResolver({ roots: [APP] });
    const frame = classifyFrame(resolver.resolve(parsed.frames[0]!), APP);
    expect(frame).toMatchObject({ kind: 'app', location: 'src/lib/slug.ts', line: 8, file: SOURCE });
    expect(frame.generated).toMatchObject({ file: COMPILED, line: 3 });
    expect(readFileSync(SOURCE, 'utf8').split('\n')[7]).toContain('.trim()');
  });

  it('leaves frames without a map, outside the root, or in Node alone', () => {
    const resolver = createSourceMapResolver({ roots: [APP] });
    const plain = { functionName: 'showPost', file: `${APP}/src/routes/posts.js`, line: 8, column: 23, generated: null };
    const outside = { functionName: 'x', file: '/elsewhere/dist/a.js', line: 1, column: 1, generated: null };
    const internal = { functionName: 'JSON.parse', file: '<anonymous>', line: null, column: null, generated: null };
    expect([resolver.resolve(plain), resolver.resolve(outside), resolver.resolve(internal)]).toEqual([plain, outside, internal]);
  });

  it('reads inline data-URL maps too', () => {
    const map = { version: 3, sources: ['original.ts'], names: [], mappings: 'AAAA;AACA', sourcesContent: ['a\nb'] };
    const code = `a\nb\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
    const resolver = createSourceMapResolver({ roots: ['/app'], readText: (path) => (path === '/app/out.js' ? code : null) });
    expect(resolver.resolve({ functionName: null, file: '/app/out.js', line: 2, column: 1, generated: null })).toMatchObject({ file: '/app/original.ts', line: 2 });
  });
});
