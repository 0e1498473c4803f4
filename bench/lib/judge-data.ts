import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { BenchUsageError } from './args.js';

/**
 * HaluEval QA files for `bench:judge`: which files to read (from `--file`, `--data` or the default
 * data folder) and their items, checked line by line.
 */

/** One HaluEval QA item: the knowledge, the question, a right answer and a hallucinated one. */
export interface HaluEvalItem {
  knowledge: string;
  question: string;
  rightAnswer: string;
  hallucinatedAnswer: string;
}

export interface HaluEvalFile {
  /** The file name without `.jsonl` (`qa_one-turn.dev`), used as the row label. */
  name: string;
  path: string;
  items: HaluEvalItem[];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const fromCwd = (path: string) => (isAbsolute(path) ? path : resolve(process.cwd(), path));

/**
 * The files to benchmark. `--file` (repeatable) names files directly. Otherwise the `.jsonl`
 * files of `<data>/halueval/` (or of `<data>` itself when it has no `halueval` folder), sorted by
 * name; `<data>` is `--data` or the default folder. A path that does not exist is a usage error
 * naming the path and the flag.
 */
export function resolveHaluEvalFiles(files: readonly string[], dataDir: string | null, defaultDataDir: string): string[] {
  if (files.length > 0) {
    return files.map((file) => {
      const path = fromCwd(file);
      if (!isFile(path)) throw new BenchUsageError(`HaluEval file ${path} does not exist or is not a file; pass --file <path to a .jsonl file>`);
      return path;
    });
  }
  const root = dataDir === null ? defaultDataDir : fromCwd(dataDir);
  const flag = `${dataDir === null ? 'the default data folder; ' : 'from --data; '}pass --data <folder holding halueval/*.jsonl> or --file <jsonl>`;
  if (!isFolder(root)) throw new BenchUsageError(`data folder ${root} does not exist (${flag})`);
  const folder = isFolder(join(root, 'halueval')) ? join(root, 'halueval') : root;
  const found = readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(folder, name));
  if (found.length === 0) throw new BenchUsageError(`no .jsonl file in ${folder} (${flag}); expected HaluEval QA files such as qa_one-turn.dev.jsonl`);
  return found;
}

/**
 * Read a HaluEval QA file: one JSON object per line with string fields `knowledge`, `question`,
 * `right_answer`, `hallucinated_answer`. A bad line is an error naming the file and line.
 */
export function loadHaluEvalFile(path: string): HaluEvalFile {
  const items: HaluEvalItem[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${path}:${index + 1}`;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new BenchUsageError(`${where}: not valid JSON (${(error as Error).message})`);
    }
    for (const field of ['knowledge', 'question', 'right_answer', 'hallucinated_answer']) {
      if (typeof row[field] !== 'string' || (row[field] as string).trim() === '') throw new BenchUsageError(`${where}: field ${field} must be a non-empty string`);
    }
    items.push({
      knowledge: row.knowledge as string,
      question: row.question as string,
      rightAnswer: row.right_answer as string,
      hallucinatedAnswer: row.hallucinated_answer as string,
    });
  });
  if (items.length === 0) throw new BenchUsageError(`${path}: no items`);
  return { name: basename(path).replace(/\.jsonl$/, ''), path, items };
}
