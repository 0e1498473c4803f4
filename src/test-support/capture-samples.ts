import type { Capture, JudgmentFlags, StoredJudgment } from '../capture/types.js';
import { outcomeOf, type JudgmentOutcome } from '../contract/outcome.js';

/** A capture as the middleware would store it, with one chunk; override any field. */
export function sampleCapture(traceId: string, overrides: Partial<Capture> = {}): Capture {
  return {
    traceId,
    requestId: `req-${traceId}`,
    capturedAt: '2026-03-01T10:00:00.000Z',
    route: '/api/chat',
    method: 'POST',
    status: 200,
    latencyMs: 12.5,
    aborted: false,
    firstTokenMs: null,
    query: 'What is the mileage rate?',
    mode: 'rag',
    chunks: [
      {
        chunkId: 'travel-and-expenses#mileage-rates',
        document: 'travel-and-expenses',
        title: 'Travel and Expenses',
        section: 'Mileage Rates',
        updated: '2025-09-01',
        hash: 'h1',
        text: '[Source: Travel and Expenses | Last updated: 2025-09-01]\nCars: 45p per mile.',
        score: 0.61,
        fusedScore: 0.03,
        rank: 1,
      },
    ],
    answer: '45p per mile.',
    refused: false,
    refusalReason: null,
    promptVersion: 'grounded-v2',
    models: { chat: 'local:local-extractive-v1', embedding: 'local:local-hash-v1' },
    usage: { inputTokens: 100, outputTokens: 5, totalTokens: 105 },
    costUsd: null,
    timings: { retrievalMs: 1, generationMs: 2, totalMs: 3 },
    truncated: false,
    ...overrides,
  };
}

/** An ok judgment of `traceId` by the heuristic judge `h1`; override any field. */
export function judgmentFor(traceId: string, overrides: Partial<StoredJudgment> = {}): StoredJudgment {
  return {
    traceId,
    judgeVersion: 'heuristic:heuristic:h1',
    judge: { kind: 'heuristic', model: 'heuristic', promptVersion: 'h1' },
    status: 'ok',
    claims: [{ text: '45p per mile', verdict: 'verified', evidenceChunkId: 'travel-and-expenses#mileage-rates', note: '' }],
    counts: { verified: 1, contradicted: 0, absent: 0 },
    flags: { faithful: true, hallucinated: false, refused: false, undetermined: false, evidenceRelevant: true, contextSufficient: true, answerRelevance: 'answers', personalData: false, refusalVerdict: 'not_applicable', refusalCorrect: null, referenceRecall: null },
    error: null,
    rawReply: null,
    attempts: 1,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    costUsd: 0,
    durationMs: 3,
    judgedAt: '2026-03-01T10:00:05.000Z',
    ...overrides,
  };
}

/** Flags that the outcome table reads as each outcome (`judge_error` has none: the judgment failed). */
const OUTCOME_FLAGS: Record<Exclude<JudgmentOutcome, 'judge_error'>, Partial<JudgmentFlags>> = {
  correct: {},
  incomplete: { answerRelevance: 'partial' },
  off_topic: { answerRelevance: 'off_topic' },
  hallucinated: { faithful: false, hallucinated: true },
  correct_refusal: { faithful: null, refused: true, refusalVerdict: 'correct_refusal', refusalCorrect: true },
  over_refusal: { faithful: null, refused: true, refusalVerdict: 'over_refusal', refusalCorrect: false, contextSufficient: true },
  should_have_refused: { refusalVerdict: 'should_have_refused', refusalCorrect: false, contextSufficient: false },
  undetermined: { faithful: null, undetermined: true },
};

/**
 * A judgment of `traceId` whose outcome under the outcome table is `outcome` (checked, so a change
 * of the table fails here, not in a test that counts outcomes).
 */
export function judgmentWithOutcome(traceId: string, outcome: JudgmentOutcome, overrides: Partial<StoredJudgment> = {}): StoredJudgment {
  const base = judgmentFor(traceId, overrides);
  const judgment: StoredJudgment =
    outcome === 'judge_error'
      ? { ...base, status: 'error', claims: [], counts: { verified: 0, contradicted: 0, absent: 0 }, flags: null, error: 'HTTP 500 after 4 attempts', attempts: 4 }
      : { ...base, flags: { ...base.flags!, ...OUTCOME_FLAGS[outcome] } };
  const actual = outcomeOf(judgment.status === 'ok' ? judgment.flags : null);
  if (actual !== outcome) throw new Error(`judgmentWithOutcome: the flags for ${outcome} give ${actual} under the outcome table; update OUTCOME_FLAGS`);
  return judgment;
}
