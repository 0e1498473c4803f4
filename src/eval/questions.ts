import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';

/**
 * Question sets: one JSON object per line (`.jsonl`), checked line by line so that every mistake
 * is reported as `file:line: field: problem`, the way a compiler would.
 */

export const QUESTION_CATEGORIES = [
  'single-chunk',
  'multi-chunk',
  'unanswerable',
  'guardrail',
  'conditional',
  'numeric',
  'changed-policy',
] as const;

export type QuestionCategory = (typeof QUESTION_CATEGORIES)[number];

export const questionSchema = z
  .object({
    /** Unique within the set; used in reports and as the pairwise RNG salt. */
    id: z.string().trim().min(1, 'must be a non-empty string'),
    question: z.string().trim().min(1, 'must be a non-empty string').max(2000, 'must be at most 2000 characters'),
    /** For the per-category tables. Default: for a must-refuse question `guardrail` when it names relevant chunks, else `unanswerable`; `multi-chunk` with two or more relevant chunks, else `single-chunk`. */
    category: z.enum(QUESTION_CATEGORIES).optional(),
    /** Chunk ids (`document#section`) that hold the answer. Empty (the default) for unanswerable questions. */
    relevantChunkIds: z.array(z.string().trim().min(1, 'must be a non-empty string')).default([]),
    /** Facts a correct answer states (checked after normalization, see METHODOLOGY.md). Default: none (no keyword check). */
    keywords: z.array(z.string().trim().min(1, 'must be a non-empty string')).default([]),
    /** A correct answer written by a person; the RAG-off answer is judged against it too. Required unless `mustRefuse`. */
    referenceAnswer: z.string().trim().min(1, 'must be a non-empty string').optional(),
    /** The right answer is a refusal (not covered, or not to be shared). Default: false. */
    mustRefuse: z.boolean().default(false),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.category === 'unanswerable' && !value.mustRefuse) {
      context.addIssue({ code: 'custom', path: ['mustRefuse'], message: 'must be true for category "unanswerable"' });
    }
    if (value.category === 'guardrail' && !value.mustRefuse) {
      context.addIssue({ code: 'custom', path: ['mustRefuse'], message: 'must be true for category "guardrail"' });
    }
    if (value.category === 'unanswerable' && value.relevantChunkIds.length > 0) {
      context.addIssue({ code: 'custom', path: ['relevantChunkIds'], message: 'must be empty for category "unanswerable"' });
    }
    if (!value.mustRefuse && value.relevantChunkIds.length === 0) {
      context.addIssue({ code: 'custom', path: ['relevantChunkIds'], message: 'must name at least one chunk for an answerable question' });
    }
    if (!value.mustRefuse && value.referenceAnswer === undefined) {
      context.addIssue({ code: 'custom', path: ['referenceAnswer'], message: 'missing: an answerable question needs a correct answer written by a person (or set "mustRefuse": true)' });
    }
    if (new Set(value.relevantChunkIds).size !== value.relevantChunkIds.length) {
      context.addIssue({ code: 'custom', path: ['relevantChunkIds'], message: 'lists the same chunk id twice' });
    }
  })
  .transform((value) => ({
    ...value,
    category: value.category ?? defaultCategory(value),
    // A must-refuse question's reference is never evidence nor checked (the judge gets none); reports show it.
    referenceAnswer: value.referenceAnswer ?? '',
  }));

/** The category of a question that names none: what its other fields say about it. */
function defaultCategory(value: { mustRefuse: boolean; relevantChunkIds: readonly string[] }): QuestionCategory {
  // Must refuse with chunks that hold the rule (say, that pay is confidential): a guardrail question.
  if (value.mustRefuse) return value.relevantChunkIds.length > 0 ? 'guardrail' : 'unanswerable';
  return value.relevantChunkIds.length > 1 ? 'multi-chunk' : 'single-chunk';
}

export type EvalQuestion = z.infer<typeof questionSchema>;

export interface QuestionSet {
  /** The path as given. */
  file: string;
  questions: EvalQuestion[];
  /** 1-based line number of each question, by id (for later error messages). */
  lines: Map<string, number>;
}

/** Most problems listed in one error before the rest are summarized. */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Read and validate a `.jsonl` question set. Blank lines are skipped. Every problem in the file is
 * collected (not just the first) and thrown as one {@link InvalidInputError} whose lines read
 * `file:line: field: problem`.
 *
 * @throws InvalidInputError `invalid_question_set` (bad lines, duplicate ids, empty file) or `not_found`.
 * @example
 * const { questions } = loadQuestionSet('fixtures/questions/smoke.jsonl');
 */
export function loadQuestionSet(file: string): QuestionSet {
  let source: string;
  try {
    if (statSync(file).isDirectory()) throw new InvalidInputError(`${file} is a folder, not a question file`, { code: 'invalid_question_set' });
    source = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw new InvalidInputError(`cannot read question file ${file}: ${(error as Error).message}`, { code: 'not_found', cause: error });
  }
  return parseQuestionSet(source, file);
}

/** Validate question-set text; `file` is used in messages only. See {@link loadQuestionSet}. */
export function parseQuestionSet(source: string, file: string): QuestionSet {
  const problems: string[] = [];
  const questions: EvalQuestion[] = [];
  const lines = new Map<string, number>();
  source.split(/\r?\n/).forEach((raw, position) => {
    const line = position + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push(`${file}:${line}: not valid JSON (${(error as Error).message})`);
      return;
    }
    const parsed = questionSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${file}:${line}: ${describeIssue(issue)}`);
      return;
    }
    const first = lines.get(parsed.data.id);
    if (first !== undefined) {
      problems.push(`${file}:${line}: id: "${parsed.data.id}" is already used on line ${first}`);
      return;
    }
    lines.set(parsed.data.id, line);
    questions.push(parsed.data);
  });
  if (problems.length === 0 && questions.length === 0) problems.push(`${file}: holds no questions`);
  if (problems.length > 0) throw questionSetError(problems);
  return { file, questions, lines };
}

/**
 * Check that every `relevantChunkIds` entry names a chunk that exists in the index, so a renamed
 * heading cannot silently turn a question's recall into 0.
 *
 * @param hasChunk e.g. `(id) => index.getChunk(id) !== undefined`
 * @throws InvalidInputError `unknown_chunk_id`, naming each question, its line and the missing id.
 */
export function checkChunkIds(set: QuestionSet, hasChunk: (chunkId: string) => boolean): void {
  const problems: string[] = [];
  for (const question of set.questions) {
    for (const chunkId of question.relevantChunkIds) {
      if (!hasChunk(chunkId)) {
        problems.push(`${set.file}:${set.lines.get(question.id) ?? '?'}: question ${question.id}: relevantChunkIds: no chunk "${chunkId}" in the index`);
      }
    }
  }
  if (problems.length > 0) throw questionSetError(problems, 'unknown_chunk_id');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  // zod prefixes type errors with "Invalid input: "; the file:line already says that.
  const message = issue.message.replace(/^Invalid (?:input|option): /, '');
  const missing = /^expected (\w+), received undefined$/.exec(message);
  return `${path}${missing ? `missing (expected ${missing[1]})` : message}`;
}

function questionSetError(problems: string[], code = 'invalid_question_set'): InvalidInputError {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  const text = [...listed, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n');
  return new InvalidInputError(text, { code });
}
