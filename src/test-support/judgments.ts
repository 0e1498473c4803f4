import { flagsOf, outcomeOf, type JudgmentOutcome } from '../contract/outcome.js';
import { isRefusal } from '../contract/refusal.js';
import { DEFAULT_FAITHFULNESS_POLICY, deriveFaithfulness } from '../judge/faithfulness-score.js';
import type { AnswerRelevance, EvidencePassage, FaithfulnessJudge, FaithfulnessJudgment, FaithfulnessOk, JudgedClaim, JudgedContext, ReferenceClaim } from '../judge/types.js';

/**
 * A faithfulness judgment for tests, derived in code from the claims given (as the judges derive
 * theirs): one chunk that `answers` unless `contexts` says otherwise, relevance `answers` unless
 * told. `null` claims give `null` (no judgment).
 */
export function judgmentFrom(
  answer: string,
  claims: readonly JudgedClaim[] | null,
  options: { answerRelevance?: AnswerRelevance; contexts?: JudgedContext[]; personalData?: boolean; referenceClaims?: ReferenceClaim[] } = {},
): FaithfulnessOk | null {
  if (claims === null) return null;
  const derived = deriveFaithfulness(
    {
      claims,
      contexts: options.contexts ?? [{ chunkId: 'x', verdict: 'answers', note: '' }],
      refused: isRefusal(answer),
      answerRelevance: options.answerRelevance ?? 'answers',
      personalData: options.personalData ?? false,
      referenceClaims: options.referenceClaims ?? null,
    },
    DEFAULT_FAITHFULNESS_POLICY,
  );
  return { status: 'ok', judge: { kind: 'mock', model: 'test', promptVersion: 'test' }, ...derived, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: 0, durationMs: 0 };
}

/** The judgment, when the judge produced one; a judge error fails the test with its message. */
export function okJudgment(judgment: FaithfulnessJudgment): FaithfulnessOk {
  if (judgment.status !== 'ok') throw new Error(`judge error: ${judgment.error}`);
  return judgment;
}

/** The claim verdicts a judge gives an answer, in order. */
export async function claimVerdicts(judge: FaithfulnessJudge, question: string, evidence: EvidencePassage[], answer: string) {
  return okJudgment(await judge.judge({ question, evidence, answer })).claims.map((claim) => claim.verdict);
}

/** The same with each claim's text (`verified: <claim>`), for tests that pin how the answer was split too. */
export async function claimReadings(judge: FaithfulnessJudge, question: string, evidence: EvidencePassage[], answer: string) {
  return okJudgment(await judge.judge({ question, evidence, answer })).claims.map((claim) => `${claim.verdict}: ${claim.text}`);
}

/**
 * A chunk as retrieval gives it to a prompt: the source line (`[Source: … | Section: … | Last
 * updated: …]`) and the body.
 */
export function chunkPassage(id: string, source: { title: string; section: string; updated: string }, body: string): EvidencePassage {
  return { id, kind: 'chunk', text: `[Source: ${source.title} | Section: ${source.section} | Last updated: ${source.updated}]\n${body}` };
}

/**
 * A hand-labelled over-refusal (fixtures/judge-labels/handbook-fresh13.jsonl, l212): the password
 * rule answers the casual question, in words too unlike it for the word rules alone to call it
 * answering; the sentence encoder does (cosine 0.65). The training chunk answers nothing.
 */
export const PASSWORD_OVER_REFUSAL = {
  question: 'IT says my new password is too short, how many charachters does it need to be?? and can i just use the same one as my personal gmail so i dont forget it',
  evidence: [
    chunkPassage(
      'it-and-security#passwords-and-passphrases',
      { title: 'IT and Security', section: 'Passwords and Passphrases', updated: '2025-07-14' },
      'Passwords for standard user accounts must be at least 14 characters long. We recommend a passphrase of three or more random words. Every password must be unique: never reuse a work password on another system or on a personal account.',
    ),
    chunkPassage(
      'training-and-development#training-costing-1-000-or-more',
      { title: 'Training and Development', section: 'Training Costing £1,000 or More', updated: '2025-11-03' },
      'Training that costs £1,000 or more in total, including VAT and exam fees, needs written approval from your manager before you book or commit to it.',
    ),
  ],
  answer: "I don't know: the provided documents do not cover this.",
} as const;

/** One handbook chunk as a judge's whole evidence: its section and body, under a title (`Handbook` unless given). */
export function sectionEvidence(id: string, section: string, body: string, title = 'Handbook'): EvidencePassage[] {
  return [chunkPassage(id, { title, section, updated: '2025-03-01' }, body)];
}

/** A chunk about annual leave: evidence that answers nothing about perks the handbook lacks. */
export const ANNUAL_LEAVE_CHUNK = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);

/**
 * How a judge reads an answer to "Do we get pet insurance through work?" when the only evidence is
 * {@link ANNUAL_LEAVE_CHUNK} (nothing answers): whether it refused, its claims and its outcome.
 * For refusal-wording tests: a right refusal there is `correct_refusal` with no claims.
 */
export async function judgeUnanswerable(judge: FaithfulnessJudge, answer: string): Promise<{ refused: boolean; claims: JudgedClaim[]; outcome: JudgmentOutcome }> {
  const judgment = okJudgment(await judge.judge({ question: 'Do we get pet insurance through work?', evidence: [ANNUAL_LEAVE_CHUNK], answer }));
  return { refused: judgment.refused, claims: judgment.claims, outcome: outcomeOf(flagsOf(judgment)) };
}
