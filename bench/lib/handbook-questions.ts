import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './args.js';

/** The 78 handbook questions (`fixtures/questions/handbook.jsonl`), in file order: the list the load and capture benchmarks replay. */
export function handbookQuestions(): string[] {
  return readFileSync(join(REPO_ROOT, 'fixtures', 'questions', 'handbook.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { question: string }).question);
}
