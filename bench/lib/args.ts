import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in `<repo>/bench/lib/`). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the benchmark data lives unless `--data` says otherwise: `<repo>/../shared/data`. */
export const DEFAULT_DATA_DIR = resolve(REPO_ROOT, '..', 'shared', 'data');

/** A benchmark failure the user can fix from the command line: printed as one line, exit code 2. */
export class BenchUsageError extends Error {}

/**
 * Parse `--name value` and `--name=value` flags. Every flag must be listed in `known`
 * (name → takes a value); unknown flags and missing values are usage errors.
 */
export function parseFlags(argv: readonly string[], known: Record<string, boolean>): Map<string, string> {
  const flags = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (!argument.startsWith('--')) throw new BenchUsageError(`unexpected argument ${JSON.stringify(argument)}; flags are ${flagList(known)}`);
    const [name, inline] = argument.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(name in known)) throw new BenchUsageError(`unknown flag --${name}; flags are ${flagList(known)}`);
    if (!known[name]) {
      flags.set(name, 'true');
      continue;
    }
    const value = inline ?? argv[++index];
    if (value === undefined || value.startsWith('--')) throw new BenchUsageError(`flag --${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

/**
 * A benchmark's own flags from `process.argv` (see {@link parseFlags}), or `null` after printing
 * `usage` when `--help` is among them (list `help: false` in `known`).
 */
export function benchFlags(known: Record<string, boolean>, usage: string): Map<string, string> | null {
  const flags = parseFlags(process.argv.slice(2), known);
  if (!flags.has('help')) return flags;
  process.stdout.write(usage);
  return null;
}

function flagList(known: Record<string, boolean>): string {
  return Object.entries(known).map(([name, takesValue]) => (takesValue ? `--${name} <value>` : `--${name}`)).join(', ');
}

/** A path from a flag (relative to the current folder) or the default; the file or folder must exist. */
export function existingPath(flags: Map<string, string>, flag: string, fallback: string, kind: 'file' | 'folder'): string {
  const given = flags.get(flag);
  const path = given === undefined ? fallback : isAbsolute(given) ? given : resolve(process.cwd(), given);
  let ok = false;
  try {
    ok = kind === 'folder' ? statSync(path).isDirectory() : statSync(path).isFile();
  } catch {
    ok = false;
  }
  if (!ok) {
    const what = existsSync(path) ? `is not a ${kind}` : 'does not exist';
    throw new BenchUsageError(
      `benchmark data ${kind} ${path} ${what}; pass --${flag} <path>` +
        (flag === 'data' ? '' : ' (or --data <folder> for the folder holding it)'),
    );
  }
  return path;
}

/** A positive integer flag. */
export function integerFlag(flags: Map<string, string>, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new BenchUsageError(`flag --${name} ${raw} is invalid: use an integer from ${min} to ${max}`);
  return value;
}

/** A comma-separated list of positive integers, e.g. `--sizes 10000,100000`. */
export function integerListFlag(flags: Map<string, string>, name: string, fallback: number[]): number[] {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) {
    throw new BenchUsageError(`flag --${name} ${raw} is invalid: use positive integers separated by commas, e.g. 10000,100000`);
  }
  return values;
}

/**
 * Run a benchmark's main function: usage errors print one line and exit 2, anything else prints
 * its stack and exits 1.
 */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => {
      process.exitCode ??= 0;
    },
    (error: unknown) => {
      if (error instanceof BenchUsageError) {
        process.stderr.write(`error: ${error.message}\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
