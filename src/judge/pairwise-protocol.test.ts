import { judgmentFrom } from '../test-support/judgments.js';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../metrics/random.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { judgePair, summarizePairwise, type PairwiseOutcome, type PairwiseSides } from './pairwise-protocol.js';
import type { JudgeFailure, JudgeInfo, PairwiseInput, PairwiseJudge, PairwiseJudgment } from './types.js';

const INFO: JudgeInfo = { kind: 'mock', model: 'mock', promptVersion: 'mock-v1' };

/** A judge that decides with a function of its input and records every input it received. */
function mockJudge(decide: (input: PairwiseInput) => 'A' | 'B' | 'tie' | 'fail' | 'throw'): PairwiseJudge & { inputs: PairwiseInput[] } {
  const inputs: PairwiseInput[] = [];
  return {
    info: INFO,
    inputs,
    async judge(input: PairwiseInput): Promise<PairwiseJudgment> {
      inputs.push(input);
      const decision = decide(input);
      if (decision === 'throw') throw new Error('judge exploded');
      if (decision === 'fail') {
        const failure: JudgeFailure = { status: 'error', judge: INFO, error: 'unparseable', rawReply: 'nope', attempts: 3, authError: false, usage: EMPTY_USAGE, costUsd: null, durationMs: 1 };
        return failure;
      }
      const criteria = { answersCorrectly: true, citesRightSource: true, statesConditions: true, noFabrication: true };
      return { status: 'ok', judge: INFO, a: criteria, b: criteria, winner: decision, reason: 'mock', usage: EMPTY_USAGE, costUsd: 0, durationMs: 1 };
    },
  };
}

const RAG_ANSWER = 'Full-time employees get 25 days of annual leave (Leave Policy, updated 2026-01-12).';
const NORAG_ANSWER = 'Most companies give about 20 days of holiday a year.';
const sides = (index: number): PairwiseSides => ({
  rag: `${RAG_ANSWER} #${index}`,
  norag: `${NORAG_ANSWER} #${index}`,
  judgmentRag: judgmentFrom(RAG_ANSWER, [{ text: 'Full-time employees get 25 days.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' }]),
  judgmentNorag: judgmentFrom(NORAG_ANSWER, [{ text: 'Companies give about 20 days.', verdict: 'absent', evidenceChunkId: null, note: '' }]),
});
const EVIDENCE = [{ id: 'leave-policy#annual-leave-entitlement', text: '[Source: Leave Policy | Last updated: 2026-01-12]\nFull-time employees receive 25 days.', kind: 'chunk' as const }];

async function runPairs(judge: PairwiseJudge, options: { seed?: number; count?: number; bothOrders?: boolean } = {}): Promise<PairwiseOutcome[]> {
  const rng = seededRng(options.seed ?? 3);
  const outcomes: PairwiseOutcome[] = [];
  for (let index = 0; index < (options.count ?? 20); index++) {
    outcomes.push(
      await judgePair({ judge, questionId: `q${index}`, question: 'How much annual leave?', evidence: EVIDENCE, sides: sides(index), rng, ...(options.bothOrders === undefined ? {} : { bothOrders: options.bothOrders }) }),
    );
  }
  return outcomes;
}

describe('judgePair: both-orders protocol', () => {
  it('a judge that always prefers "A": every pair a tie, position consistency 0, no wins', async () => {
    const outcomes = await runPairs(mockJudge(() => 'A'));
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(Array(20).fill('tie'));
    expect(outcomes.every((outcome) => outcome.consistent === false)).toBe(true);
    expect(summarizePairwise(outcomes)).toMatchObject({
      pairs: 20, n: 20, wins: 0, ties: 20, losses: 0, errors: 0, winRate: 0.5,
      positionConsistency: 0, consistencyPairs: 20, firstPositionWinShare: 1, decisiveTrials: 40,
    });
  });

  it('a judge that prefers the grounded answer by its content: every pair a RAG win, consistency 1', async () => {
    const judge = mockJudge((input) => (input.answerA.includes('25 days') ? 'A' : 'B'));
    const outcomes = await runPairs(judge);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(Array(20).fill('rag'));
    const summary = summarizePairwise(outcomes);
    expect(summary).toMatchObject({ n: 20, wins: 20, ties: 0, losses: 0, winRate: 1, positionConsistency: 1, firstPositionWinShare: 0.5, decisiveTrials: 40 });
    expect(summary.winRateCi).toMatchObject({ lower: 1, upper: 1 });
  });

  it('a side must win both orders: one win and one tie is a tie', async () => {
    const judge = mockJudge((input) => (input.answerA.includes('25 days') ? 'A' : 'tie'));
    const [outcome] = await runPairs(judge, { count: 1 });
    expect(outcome).toMatchObject({ outcome: 'tie', consistent: false });
    expect(outcome!.trials.map((trial) => trial.winnerSide).sort()).toEqual(['rag', 'tie']);
  });

  it('a judge error in one order makes the pair an error, excluded from n and counted', async () => {
    // Fails only for question 4 when the closed-book answer is shown as A.
    const judge = mockJudge((input) => (input.answerA.endsWith('#4') && input.answerA.includes('20 days') ? 'fail' : input.answerA.includes('25 days') ? 'A' : 'B'));
    const outcomes = await runPairs(judge, { count: 6 });
    expect(outcomes[4]).toMatchObject({ outcome: 'error', consistent: null });
    expect(outcomes[4]!.trials.map((trial) => trial.winnerSide).sort()).toEqual(['rag', null].sort());
    expect(summarizePairwise(outcomes)).toMatchObject({ pairs: 6, n: 5, wins: 5, errors: 1, winRate: 1, consistencyPairs: 5, decisiveTrials: 11 });
  });

  it('a judge that throws is an error outcome, not a thrown error', async () => {
    const [outcome] = await runPairs(mockJudge(() => 'throw'), { count: 1 });
    expect(outcome!.outcome).toBe('error');
    expect(outcome!.trials[0]!.judgment).toMatchObject({ status: 'error', error: 'judge threw: judge exploded', judge: INFO });
  });

  it('the first order comes from the seeded RNG and is recorded; the same seed gives the same orders', async () => {
    const judge = mockJudge((input) => (input.answerA.includes('25 days') ? 'A' : 'B'));
    const first = await runPairs(judge, { seed: 9 });
    const again = await runPairs(judge, { seed: 9 });
    const other = await runPairs(judge, { seed: 10 });
    const orders = (outcomes: PairwiseOutcome[]) => outcomes.map((outcome) => outcome.firstOrder);
    expect(orders(again)).toEqual(orders(first));
    expect(orders(other)).not.toEqual(orders(first));
    expect(new Set(orders(first))).toEqual(new Set(['rag-first', 'norag-first']));
    // Matches the rng: one draw per pair, < 0.5 → rag first.
    const rng = seededRng(9);
    expect(orders(first)).toEqual(Array.from({ length: 20 }, () => (rng() < 0.5 ? 'rag-first' : 'norag-first')));
    // Recorded trials follow the first order, then the other; the judge saw what was recorded.
    for (const outcome of first) {
      expect(outcome.trials.map((trial) => trial.order)).toEqual(
        outcome.firstOrder === 'rag-first' ? ['rag-first', 'norag-first'] : ['norag-first', 'rag-first'],
      );
      expect(outcome.trials.map((trial) => trial.shownAsA)).toEqual(outcome.trials.map((trial) => (trial.order === 'rag-first' ? 'rag' : 'norag')));
    }
    const firstPairInputs = judge.inputs.slice(0, 2);
    expect(firstPairInputs[0]!.answerA).toBe(first[0]!.shown[first[0]!.trials[0]!.shownAsA]);
  });

  it('one order only: one trial, its verdict is the outcome, consistency not measured', async () => {
    const outcomes = await runPairs(mockJudge(() => 'A'), { bothOrders: false, count: 10 });
    expect(outcomes.every((outcome) => outcome.trials.length === 1 && outcome.consistent === null)).toBe(true);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(outcomes.map((outcome) => (outcome.firstOrder === 'rag-first' ? 'rag' : 'norag')));
    expect(summarizePairwise(outcomes)).toMatchObject({ positionConsistency: null, consistencyPairs: 0, firstPositionWinShare: 1 });
  });

  it('the judge never sees words that reveal the mode or the model', async () => {
    const judge = mockJudge(() => 'tie');
    const outcome = await judgePair({
      judge,
      questionId: 'q1',
      question: 'How much annual leave do I get?',
      evidence: EVIDENCE,
      sides: {
        rag: 'Based on the retrieved context, full-time employees get 25 days of annual leave (Leave Policy, updated 2026-01-12). Answered by gpt-4o-mini with RAG.',
        norag: "As an AI language model (llama3.1:8b) without the documents provided, I believe it's about 20 days. Ask acme-chat-2 for more.",
        judgmentRag: judgmentFrom('x', [{ text: 'Based on the retrieved context, employees get 25 days.', verdict: 'verified', evidenceChunkId: 'x', note: 'found in the retrieved passage' }]),
        judgmentNorag: judgmentFrom('y', [{ text: 'It is about 20 days (local-extractive-v1).', verdict: 'absent', evidenceChunkId: null, note: 'not in context' }]),
      },
      rng: seededRng(1),
      scrubTerms: ['acme-chat-2'],
    });
    expect(judge.inputs).toHaveLength(2);
    const claimsOf = (judgment: PairwiseInput['judgmentA']) => (judgment?.status === 'ok' ? judgment.claims : null);
    const seen = JSON.stringify(judge.inputs.map(({ answerA, answerB, judgmentA, judgmentB }) => ({ answerA, answerB, claimsA: claimsOf(judgmentA), claimsB: claimsOf(judgmentB) })));
    expect(seen).not.toMatch(/\bRAG\b|retriev|context|gpt|llama|local-extractive|acme-chat|documents provided|provided documents|language model|as an AI/i);
    // The content itself survives.
    expect(seen).toContain('Full-time employees get 25 days of annual leave (Leave Policy, updated 2026-01-12).');
    expect(seen).toContain('20 days');
    expect(outcome.shown.rag).toBe('Full-time employees get 25 days of annual leave (Leave Policy, updated 2026-01-12). Answered by with.');
    // Lengths are measured on the answers as written (22 and 20 whitespace-separated words), not on the scrubbed text.
    expect(outcome.answerWords).toEqual({ rag: 22, norag: 20 });
  });
});

describe('summarizePairwise', () => {
  const outcome = (result: PairwiseOutcome['outcome'], words: [number, number]): PairwiseOutcome => ({
    questionId: 'q',
    firstOrder: 'rag-first',
    trials: [],
    outcome: result,
    consistent: result === 'error' ? null : true,
    answerWords: { rag: words[0], norag: words[1] },
    shown: { rag: '', norag: '' },
  });

  it('counts from the RAG side, with the win rate (wins + 0.5·ties)/n and a seeded bootstrap interval', () => {
    const outcomes = [
      outcome('rag', [40, 10]),
      outcome('rag', [60, 20]),
      outcome('tie', [50, 30]),
      outcome('norag', [30, 40]),
      outcome('error', [20, 50]),
    ];
    const summary = summarizePairwise(outcomes, { seed: 4 });
    // n = 4 (the error is excluded); winRate = (2 + 0.5 · 1) / 4 = 0.625
    expect(summary).toMatchObject({ pairs: 5, n: 4, wins: 2, ties: 1, losses: 1, errors: 1, winRate: 0.625, positionConsistency: 1, consistencyPairs: 4 });
    // Mean lengths over all five pairs: rag (40+60+50+30+20)/5 = 40; norag (10+20+30+40+50)/5 = 30
    expect(summary.meanAnswerWords).toEqual({ rag: 40, norag: 30 });
    expect(summary.winRateCi!.lower).toBeLessThanOrEqual(0.625);
    expect(summary.winRateCi!.upper).toBeGreaterThanOrEqual(0.625);
    expect(summary.winRateCi).toMatchObject({ level: 0.95, resamples: 2000, seed: 4 });
    expect(summarizePairwise(outcomes, { seed: 4 })).toEqual(summary);
    expect(summarizePairwise(outcomes, { seed: 4, resamples: 500 }).winRateCi!.resamples).toBe(500);
  });

  it('nothing judged: null rates, not zeros', () => {
    expect(summarizePairwise([outcome('error', [1, 1])])).toMatchObject({
      pairs: 1, n: 0, errors: 1, winRate: null, winRateCi: null, positionConsistency: null, firstPositionWinShare: null,
    });
    expect(summarizePairwise([]).meanAnswerWords).toEqual({ rag: null, norag: null });
  });
});
