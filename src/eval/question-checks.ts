import type { QuestionResult, RunSummary } from './types.js';

/**
 * Per-question checks of a RAG-on answer, for CI output (JUnit) and the sweep's correct-answer
 * rate: one table of what a question passes or fails, so the JUnit file, the sweep and the
 * reports cannot disagree.
 *
 * Seam: the correct-answer rule below uses what the results hold today (refusal, the claim
 * verdicts and keyword hits). When the judging v2 work lands an outcome metric for correctness,
 * {@link isCorrectAnswer} is the one function to point at it.
 */

export type CheckName = 'ran' | 'refusal' | 'faithfulness' | 'keywords' | 'retrieval';

export interface QuestionCheck {
  name: CheckName;
  /** `pass`; `fail`: the answer is wrong in this respect; `error`: it could not be decided (the question or its judge failed). */
  status: 'pass' | 'fail' | 'error';
  /** What was found, for a person: which keywords are missing, which claims were flagged. */
  message: string;
}

/** The longest piece of an answer quoted in a message. */
const QUOTE = 160;

/**
 * The checks of one question (checks that do not apply are left out): it ran; it refused if and
 * only if it must; its claims are grounded in the chunks it was given; it states every expected
 * keyword; its retrieval found at least one relevant chunk.
 *
 * @example
 * const failed = questionChecks(question).filter((check) => check.status !== 'pass');
 */
export function questionChecks(question: QuestionResult): QuestionCheck[] {
  if (question.status === 'error' || !question.rag) return [{ name: 'ran', status: 'error', message: `the question could not be run: ${question.error ?? 'unknown error'}` }];
  const rag = question.rag;
  const checks: QuestionCheck[] = [];
  if (question.mustRefuse) {
    checks.push(rag.refused ? { name: 'refusal', status: 'pass', message: 'refused, as it must' } : { name: 'refusal', status: 'fail', message: `must refuse, but answered: "${quote(rag.answer)}"` });
  } else {
    checks.push(rag.refused ? { name: 'refusal', status: 'fail', message: `refused an answerable question: "${quote(rag.answer)}"` } : { name: 'refusal', status: 'pass', message: 'answered' });
  }
  const judgment = rag.judgment;
  if (judgment.status === 'error') checks.push({ name: 'faithfulness', status: 'error', message: `judge error (${judgment.judge.model}, ${judgment.attempts} attempt(s)): ${judgment.error}` });
  else if (judgment.hallucinated) {
    const flagged = judgment.claims.filter((claim) => claim.verdict !== 'verified');
    const lines = flagged.map((claim) => `${claim.verdict}: "${quote(claim.text)}"${claim.evidenceChunkId ? ` (${claim.evidenceChunkId})` : ''}${claim.note ? `: ${claim.note}` : ''}`);
    checks.push({ name: 'faithfulness', status: 'fail', message: `${flagged.length} claim(s) not grounded in the ${rag.judgedAgainst.length} chunk(s) it was given:\n${lines.join('\n')}` });
  } else if (judgment.faithful) checks.push({ name: 'faithfulness', status: 'pass', message: `${judgment.counts.verified} claim(s) verified` });
  if (!question.mustRefuse && !rag.refused && question.keywords.length > 0) {
    const missing = rag.keywords.missing;
    checks.push(missing.length === 0 ? { name: 'keywords', status: 'pass', message: 'every keyword stated' } : { name: 'keywords', status: 'fail', message: `missing keyword(s): ${missing.map((keyword) => `"${keyword}"`).join(', ')}` });
  }
  if (!question.mustRefuse && question.relevantChunkIds.length > 0) {
    const found = question.relevantChunkIds.filter((id) => question.retrievedChunkIds.includes(id));
    checks.push(
      found.length > 0
        ? { name: 'retrieval', status: 'pass', message: `retrieved ${found.join(', ')}` }
        : { name: 'retrieval', status: 'fail', message: `no relevant chunk retrieved: expected ${question.relevantChunkIds.join(', ')}; got ${question.retrievedChunkIds.join(', ') || 'nothing'}` },
    );
  }
  return checks;
}

/**
 * Whether the RAG-on answer is correct: a must-refuse question refused; an answerable one
 * answered with no hallucinated claim and every expected keyword. `null` when it cannot be
 * decided (the question failed, or the faithfulness judge erred).
 */
export function isCorrectAnswer(question: QuestionResult): boolean | null {
  if (question.status === 'error' || !question.rag) return null;
  const rag = question.rag;
  if (question.mustRefuse) return rag.refused;
  if (rag.judgment.status === 'error') return null;
  return !rag.refused && !rag.judgment.hallucinated && rag.keywords.missing.length === 0;
}

/** Correct answers / questions decided, over one run; `null` when none was decided. */
export function correctAnswerRate(run: Pick<RunSummary, 'questions'>): number | null {
  const decided = run.questions.map(isCorrectAnswer).filter((correct): correct is boolean => correct !== null);
  return decided.length === 0 ? null : decided.filter(Boolean).length / decided.length;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE ? `${flat.slice(0, QUOTE)}…` : flat;
}
