import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { BenchUsageError } from './args.js';

/**
 * Hand-labelled judge items (`fixtures/judge-labels/*.jsonl`): one answer to one question, with the
 * evidence exactly as retrieval returned it and the label a person gave it. `bench:judge --labels`
 * measures each judge against them (METHODOLOGY.md, "Meta-evaluation").
 */

export const JUDGE_LABELS = ['correct', 'incomplete', 'contradicted', 'fabricated', 'off_topic', 'correct_refusal', 'over_refusal', 'should_have_refused'] as const;
export type JudgeLabel = (typeof JUDGE_LABELS)[number];

const itemSchema = z
  .object({
    id: z.string().min(1),
    questionId: z.string().min(1),
    question: z.string().min(1),
    evidence: z.array(z.object({ id: z.string().min(1), text: z.string() }).strict()),
    answer: z.string(),
    label: z.enum(JUDGE_LABELS),
    faithful: z.boolean().nullable(),
    answersQuestion: z.enum(['yes', 'partial', 'no', 'refusal']),
    refusalCorrect: z.boolean().nullable(),
    mustRefuse: z.boolean(),
    referenceAnswer: z.string(),
    note: z.string(),
  })
  .strict();

export type LabelledItem = z.infer<typeof itemSchema>;

export interface LabelFile {
  name: string;
  path: string;
  items: LabelledItem[];
}

/**
 * Read a label file; every line must match the schema, ids must be unique. A bad line is a usage
 * error naming the file, the line and the field.
 */
export function loadLabelFile(path: string): LabelFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BenchUsageError(`label file ${path} cannot be read (${(error as Error).message}); pass --labels <file.jsonl>`);
  }
  const items: LabelledItem[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${path}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new BenchUsageError(`${where}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = itemSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BenchUsageError(`${where}: ${issue.path.join('.') || 'item'}: ${issue.message}`);
    }
    if (seen.has(parsed.data.id)) throw new BenchUsageError(`${where}: id "${parsed.data.id}" is used twice`);
    seen.add(parsed.data.id);
    items.push(parsed.data);
  });
  if (items.length === 0) throw new BenchUsageError(`${path}: no items`);
  return { name: basename(path).replace(/\.jsonl$/, ''), path, items };
}

/** The outcome a label stands for: `contradicted` and `fabricated` are both `hallucinated`. */
export function expectedOutcome(label: JudgeLabel): string {
  return label === 'contradicted' || label === 'fabricated' ? 'hallucinated' : label;
}
