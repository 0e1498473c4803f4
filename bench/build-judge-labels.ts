/**
 * Builds `fixtures/judge-labels/handbook-{tune,check}.jsonl` from the hand-written answers in
 * `fixtures/judge-labels/source/handbook-answers.jsonl`: each answer gets its question, reference
 * answer and `mustRefuse` from `fixtures/questions/handbook.jsonl`, and as evidence the top-8 chunks
 * exactly as the handbook suite's retrieval returns them (offline embedder, default gate), with the
 * text the model sees. `faithful`, `answersQuestion` and `refusalCorrect` follow from the label
 * (METHODOLOGY.md, "Meta-evaluation"); a source line may override them.
 *
 * Questions are split in two by order of id, alternating within answerable and must-refuse
 * questions: the tuning half (rules were developed against it) and the check half (measured only).
 *
 *   npx tsx bench/build-judge-labels.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { retrieve } from '../src/rag/retrieve.js';
import { openIndex } from '../src/rag/store.js';
import { REPO_ROOT, runBenchmark } from './lib/args.js';
import { JUDGE_LABELS, type JudgeLabel, type LabelledItem } from './lib/judge-labels.js';

interface SourceLine {
  q: string;
  label: JudgeLabel;
  answer: string;
  note: string;
  faithful?: boolean | null;
  answersQuestion?: LabelledItem['answersQuestion'];
  refusalCorrect?: boolean | null;
}

interface Question {
  id: string;
  question: string;
  mustRefuse: boolean;
  referenceAnswer: string;
}

const DEFAULTS: Record<JudgeLabel, Pick<LabelledItem, 'faithful' | 'answersQuestion'>> = {
  correct: { faithful: true, answersQuestion: 'yes' },
  incomplete: { faithful: true, answersQuestion: 'partial' },
  contradicted: { faithful: false, answersQuestion: 'yes' },
  fabricated: { faithful: false, answersQuestion: 'yes' },
  off_topic: { faithful: true, answersQuestion: 'no' },
  correct_refusal: { faithful: null, answersQuestion: 'refusal' },
  over_refusal: { faithful: null, answersQuestion: 'refusal' },
  should_have_refused: { faithful: false, answersQuestion: 'yes' },
};

function refusalCorrectOf(label: JudgeLabel, mustRefuse: boolean): boolean | null {
  if (label === 'correct_refusal') return true;
  if (label === 'over_refusal' || label === 'should_have_refused') return false;
  // A non-refusal to a question that must be refused did not refuse when it should have.
  return mustRefuse ? false : null;
}

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

async function main(): Promise<void> {
  const source = readJsonl<SourceLine>(join(REPO_ROOT, 'fixtures/judge-labels/source/handbook-answers.jsonl'));
  const questions = new Map(readJsonl<Question>(join(REPO_ROOT, 'fixtures/questions/handbook.jsonl')).map((question) => [question.id, question]));
  const dir = mkdtempSync(join(tmpdir(), 'groundcheck-labels-'));
  const index = openIndex({ path: join(dir, 'index.db'), embedder: createLocalEmbedder() });
  try {
    await ingestDirectory(index, join(REPO_ROOT, 'fixtures/corpus'));
    const used = [...new Set(source.map((line) => line.q))].sort();
    const half = new Map<string, 'tune' | 'check'>();
    for (const mustRefuse of [false, true]) {
      used.filter((id) => questions.get(id)!.mustRefuse === mustRefuse).forEach((id, position) => half.set(id, position % 2 === 0 ? 'tune' : 'check'));
    }
    const evidence = new Map<string, LabelledItem['evidence']>();
    for (const id of used) {
      const result = await retrieve(index, questions.get(id)!.question, { topK: 8 });
      evidence.set(id, result.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text })));
    }
    const files: Record<'tune' | 'check', LabelledItem[]> = { tune: [], check: [] };
    const counters = new Map<string, number>();
    for (const line of source) {
      const question = questions.get(line.q);
      if (!question) throw new Error(`unknown question ${line.q}`);
      if (!JUDGE_LABELS.includes(line.label)) throw new Error(`unknown label ${line.label}`);
      const key = `${line.q}-${line.label}`;
      counters.set(key, (counters.get(key) ?? 0) + 1);
      const defaults = DEFAULTS[line.label];
      files[half.get(line.q)!].push({
        id: `${key}-${counters.get(key)}`,
        questionId: line.q,
        question: question.question,
        evidence: evidence.get(line.q)!,
        answer: line.answer,
        label: line.label,
        faithful: line.faithful !== undefined ? line.faithful : defaults.faithful,
        answersQuestion: line.answersQuestion ?? defaults.answersQuestion,
        refusalCorrect: line.refusalCorrect !== undefined ? line.refusalCorrect : refusalCorrectOf(line.label, question.mustRefuse),
        mustRefuse: question.mustRefuse,
        referenceAnswer: question.referenceAnswer,
        note: line.note,
      });
    }
    for (const [name, items] of Object.entries(files)) {
      writeFileSync(join(REPO_ROOT, `fixtures/judge-labels/handbook-${name}.jsonl`), items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      const counts = Object.fromEntries(JUDGE_LABELS.map((label) => [label, items.filter((item) => item.label === label).length]));
      process.stdout.write(`handbook-${name}.jsonl: ${items.length} items ${JSON.stringify(counts)}\n`);
    }
  } finally {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark(main);
