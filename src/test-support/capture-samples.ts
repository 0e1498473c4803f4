import type { Capture, StoredJudgment } from '../capture/types.js';

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
