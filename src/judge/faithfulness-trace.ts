import { answerForJudging } from '../contract/notes.js';
import type { RagTrace } from '../contract/trace.js';
import { evidenceFromTrace } from './evidence.js';
import type { EvidencePassage, FaithfulnessJudge, FaithfulnessJudgment } from './types.js';

/**
 * Judge a trace's answer against exactly the chunks its generator saw (plus optional reference
 * excerpts). Nothing is retrieved again: the trace is the evidence. Notes the pipeline appended
 * (the outdated-document note) are taken off first: they are not claims. `reference` (a reference answer,
 * for reference-claim recall) and `personalData` (the question asks for personal data) are facts an
 * offline eval knows; a live judge leaves them out.
 *
 * @example
 * const trace = await pipeline.ask('How many weeks of parental leave do I get?');
 * const judgment = await judgeTrace(createHeuristicFaithfulnessJudge(), trace);
 */
export function judgeTrace(
  judge: FaithfulnessJudge,
  trace: RagTrace,
  options: { references?: EvidencePassage[]; abortSignal?: AbortSignal; reference?: string | null; personalData?: boolean } = {},
): Promise<FaithfulnessJudgment> {
  const evidence = evidenceFromTrace(trace, options.references);
  return judge.judge(
    {
      question: trace.query,
      evidence,
      answer: answerForJudging(trace),
      ...(options.reference ? { reference: options.reference } : {}),
      ...(options.personalData !== undefined ? { personalData: options.personalData } : {}),
    },
    options.abortSignal ? { abortSignal: options.abortSignal } : {},
  );
}
