import { existsSync, readFileSync } from 'node:fs';
import { parseGateConfig, type Gate } from '../eval/gates.js';
import type { ProviderName } from '../providers/config.js';
import { UsageError } from './io.js';

/** Flag readers both eval commands share (question-answering suites and explain-errors suites). */

/**
 * Gates from a `--gates` file: the gates object itself, or a file with a `gates` key (a suite file
 * works too). `metrics`: the metric names a gate may use.
 */
export function gatesFile(path: string, given: string, metrics?: Readonly<Record<string, string>>): Gate[] {
  if (!existsSync(path)) throw new UsageError(`--gates ${given}: file not found`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--gates ${given}: not valid JSON (${(error as Error).message})`);
  }
  const gates = raw !== null && typeof raw === 'object' && 'gates' in raw ? (raw as { gates: unknown }).gates : raw;
  return metrics === undefined ? parseGateConfig(gates, given) : parseGateConfig(gates, given, metrics);
}

/** `--provider` / `--judge-provider`: `local` or `openai`. */
export function providerFlag(value: string | undefined, name: string): ProviderName | undefined {
  if (value === undefined) return undefined;
  if (value !== 'local' && value !== 'openai') throw new UsageError(`${name} must be local or openai, not "${value}"`);
  return value;
}
