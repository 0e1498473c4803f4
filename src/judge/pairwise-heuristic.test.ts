import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../metrics/random.js';
import { splitSentences } from '../text/text.js';
import { chunkDocument, parseDocument } from '../rag/chunk.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { CORPUS_DIR, QUESTIONS_DIR } from '../test-support/fixtures.js';
import { passageParts } from '../contract/evidence.js';
import { analyzeQuestion, createHeuristicPairwiseJudge } from './pairwise-heuristic.js';
import { DEFAULT_CRITERIA_WEIGHTS } from './pairwise-criteria.js';
import { judgmentFrom } from '../test-support/judgments.js';
import type { AnswerRelevance, ClaimVerdict, EvidencePassage, JudgedClaim, PairwiseInput, PairwiseOk, ReferenceClaim } from './types.js';

const chunks = readdirSync(CORPUS_DIR).flatMap((file) => chunkDocument(parseDocument(file, readFileSync(join(CORPUS_DIR, file), 'utf8'))));
const chunkById = new Map(chunks.map((chunk) => [chunk.chunkId, chunk]));
const passage = (id: string): EvidencePassage => ({ id, text: chunkById.get(id)!.modelText, kind: 'chunk' });

const claimsOf = (text: string, verdict: ClaimVerdict = 'verified'): JudgedClaim[] =>
  splitSentences(text).map((sentence) => ({ text: sentence, verdict, evidenceChunkId: verdict === 'absent' ? null : 'x', note: '' }));

const judge = createHeuristicPairwiseJudge();
/** The judge's input with each side's judgment derived from the claims given (see `judgmentFrom`). */
interface ClaimsInput extends Omit<PairwiseInput, 'judgmentA' | 'judgmentB'> {
  claimsA: JudgedClaim[] | null;
  claimsB: JudgedClaim[] | null;
  relevanceA?: AnswerRelevance;
}
const toInput = ({ claimsA, claimsB, relevanceA, ...rest }: ClaimsInput): PairwiseInput => ({
  ...rest,
  judgmentA: judgmentFrom(rest.answerA, claimsA, relevanceA ? { answerRelevance: relevanceA } : {}),
  judgmentB: judgmentFrom(rest.answerB, claimsB),
});
const run = async (input: ClaimsInput) => (await judge.judge(toInput(input))) as PairwiseOk;

const QUESTION = 'How many days of annual leave do full-time employees get?';
const EVIDENCE = [passage('leave-policy#annual-leave-entitlement'), passage('leave-policy#booking-annual-leave')];
const GROUNDED =
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays. You receive one extra day for each completed ' +
  'year of service, up to a maximum of 30 days a year (reached after 5 completed years). Part-time employees receive a pro rata ' +
  'entitlement, worked out in proportion to the time you are employed (Leave Policy, updated 2026-01-12).';
const FABRICATED = 'Full-time employees get 40 days of annual leave, and unused days are paid out every December.';

describe('heuristic pairwise judge: criteria', () => {
  it('parses the source and section lines of a chunk', () => {
    expect(passageParts(EVIDENCE[0]!)).toMatchObject({ title: 'Leave Policy', section: 'Annual Leave Entitlement' });
    expect(passageParts({ id: 'p', kind: 'chunk', text: 'plain text' })).toEqual({ title: null, section: null, updated: null, body: 'plain text' });
  });

  it('finds the best passage and its condition sentences that concern the question', () => {
    const analysis = analyzeQuestion(QUESTION, EVIDENCE);
    expect(analysis.best?.id).toBe('leave-policy#annual-leave-entitlement');
    expect(analysis.best?.conditions).toEqual([
      'You receive one extra day of annual leave for each completed year of service, up to a maximum of 30 days a year (reached after 5 completed years).',
      'Part-time employees receive a pro rata entitlement, and if you join or leave part-way through the year your entitlement is worked out in proportion to the time you are employed.',
    ]);
    expect(analyzeQuestion('xylophone quasar', EVIDENCE).best).toBeNull();
    // A reference excerpt matches the question best, but a chunk (which has a title to cite) is preferred.
    const reference = { id: 'reference:q1', text: 'Full-time employees get 25 days of annual leave a year.', kind: 'reference' as const };
    expect(analyzeQuestion(QUESTION, [reference, EVIDENCE[1]!]).best?.id).toBe('leave-policy#booking-annual-leave');
    expect(analyzeQuestion(QUESTION, [reference]).best).toMatchObject({ id: 'reference:q1', title: null, section: null });
  });

  it.each([
    // [label, answer, claims, expected criteria]
    ['grounded, cited, with conditions', GROUNDED, claimsOf(GROUNDED), { answersCorrectly: true, citesRightSource: true, statesConditions: true, noFabrication: true }],
    ['correct but bare', 'Full-time employees get 25 days of annual leave.', claimsOf('Full-time employees get 25 days of annual leave.'),
      { answersCorrectly: true, citesRightSource: false, statesConditions: false, noFabrication: true }],
    ['names the section instead of the title', 'Per Annual Leave Entitlement, full-time employees get 25 days.', claimsOf('Full-time employees get 25 days.'),
      { answersCorrectly: true, citesRightSource: true, statesConditions: false, noFabrication: true }],
    ['contradicted claim', FABRICATED, claimsOf(FABRICATED, 'contradicted'), { answersCorrectly: false, citesRightSource: false, statesConditions: false, noFabrication: false }],
    // Its outcome is `hallucinated`, so it does not answer correctly (v2: taken from the verdicts).
    ['verified core plus an absent extra', `${GROUNDED} You can also buy 5 extra days.`, [...claimsOf(GROUNDED), ...claimsOf('You can also buy 5 extra days.', 'absent')],
      { answersCorrectly: false, citesRightSource: true, statesConditions: true, noFabrication: false }],
    ['refusal with no claims', REFUSAL_SENTENCE, [], { answersCorrectly: false, citesRightSource: false, statesConditions: false, noFabrication: true }],
    ['refusal, claims unknown', REFUSAL_SENTENCE, null, { answersCorrectly: false, citesRightSource: false, statesConditions: false, noFabrication: true }],
    ['fluent answer, claims unknown', GROUNDED, null, { answersCorrectly: false, citesRightSource: true, statesConditions: true, noFabrication: false }],
    ['verified but off the question', 'Requests are approved in MyHarbour (Leave Policy, updated 2026-01-12).', claimsOf('Requests are approved in MyHarbour.'),
      { answersCorrectly: false, citesRightSource: false, statesConditions: false, noFabrication: true }, 'off_topic'],
  ] as const)('%s', async (_label, answer, claims, expected, relevance?: AnswerRelevance) => {
    const judgment = await run({ question: QUESTION, evidence: EVIDENCE, answerA: answer, answerB: REFUSAL_SENTENCE, claimsA: claims as JudgedClaim[] | null, claimsB: [], ...(relevance ? { relevanceA: relevance } : {}) });
    expect(judgment.a).toEqual(expected);
  });

  it('absent claims do not count as fabrication when the policy says so', async () => {
    const lenient = createHeuristicPairwiseJudge({ policy: { absentIsHallucination: false } });
    const input = { question: QUESTION, evidence: EVIDENCE, answerA: GROUNDED, answerB: GROUNDED, claimsA: claimsOf(GROUNDED, 'absent'), claimsB: claimsOf(GROUNDED, 'contradicted') };
    const judgment = (await lenient.judge(toInput(input))) as PairwiseOk;
    expect([judgment.a.noFabrication, judgment.b.noFabrication]).toEqual([true, false]);
    expect(((await judge.judge(toInput(input))) as PairwiseOk).a.noFabrication).toBe(false);
  });
});

describe('heuristic pairwise judge: verdicts', () => {
  it('a refusal beats a fabricated answer, in both positions', async () => {
    for (const claims of [claimsOf(FABRICATED, 'contradicted'), claimsOf(FABRICATED, 'absent'), null]) {
      const refusalFirst = await run({ question: QUESTION, evidence: EVIDENCE, answerA: REFUSAL_SENTENCE, answerB: FABRICATED, claimsA: [], claimsB: claims });
      const refusalSecond = await run({ question: QUESTION, evidence: EVIDENCE, answerA: FABRICATED, answerB: REFUSAL_SENTENCE, claimsA: claims, claimsB: [] });
      expect([refusalFirst.winner, refusalSecond.winner]).toEqual(['A', 'B']);
    }
  });

  it('a refusal beats even a cited, mostly right answer with one contradicted detail', async () => {
    const answer = `${GROUNDED} Unused days are paid out every December.`;
    const claims = [...claimsOf(GROUNDED), ...claimsOf('Unused days are paid out every December.', 'contradicted')];
    const judgment = await run({ question: QUESTION, evidence: EVIDENCE, answerA: answer, answerB: REFUSAL_SENTENCE, claimsA: claims, claimsB: null });
    expect(judgment.winner).toBe('B');
  });

  it('a grounded correct answer beats a refusal, in both positions', async () => {
    const first = await run({ question: QUESTION, evidence: EVIDENCE, answerA: GROUNDED, answerB: REFUSAL_SENTENCE, claimsA: claimsOf(GROUNDED), claimsB: [] });
    const second = await run({ question: QUESTION, evidence: EVIDENCE, answerA: REFUSAL_SENTENCE, answerB: GROUNDED, claimsA: [], claimsB: claimsOf(GROUNDED) });
    expect([first.winner, second.winner]).toEqual(['A', 'B']);
    expect(first.reason).toMatch(/^A \(11\): answers correctly, cites the right source, states the conditions, no fabrication\. B \(6\): /);
  });

  it('a complete cited answer beats a bare correct one; two refusals tie', async () => {
    const bare = 'Full-time employees get 25 days of annual leave.';
    const judgment = await run({ question: QUESTION, evidence: EVIDENCE, answerA: bare, answerB: GROUNDED, claimsA: claimsOf(bare), claimsB: claimsOf(GROUNDED) });
    expect(judgment.winner).toBe('B');
    const refusals = await run({ question: QUESTION, evidence: EVIDENCE, answerA: REFUSAL_SENTENCE, answerB: "I don't know.", claimsA: [], claimsB: null });
    expect(refusals.winner).toBe('tie');
  });

  it('is symmetric: swapping A and B swaps the verdict, on thousands of pairs from the handbook', async () => {
    const questions = readFileSync(join(QUESTIONS_DIR, 'handbook.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as {
      question: string; relevantChunkIds: string[]; referenceAnswer: string; mustRefuse: boolean;
    });
    const rng = seededRng(11);
    const verdicts: ClaimVerdict[] = ['verified', 'contradicted', 'absent'];
    let pairs = 0;
    const winners = { A: 0, B: 0, tie: 0 };
    for (const item of questions) {
      const evidence = item.relevantChunkIds.map(passage);
      const title = evidence[0] ? passageParts(evidence[0]).title : 'Handbook';
      const reference = item.referenceAnswer || 'The handbook does not say.';
      // Several kinds of answer, each with claims, including random verdict mixes.
      const variants: { answer: string; claims: JudgedClaim[] | null }[] = [
        { answer: reference, claims: claimsOf(reference) },
        { answer: `${reference} (${title}, updated 2025-01-01)`, claims: claimsOf(reference) },
        { answer: reference, claims: claimsOf(reference).map((claim) => ({ ...claim, verdict: verdicts[Math.floor(rng() * 3)]! })) },
        { answer: reference.split('.')[0] + '.', claims: null },
        { answer: REFUSAL_SENTENCE, claims: [] },
        { answer: "Sorry, I don't know.", claims: null },
        { answer: 'Ask your manager; it depends.', claims: claimsOf('Ask your manager; it depends.', 'absent') },
      ];
      for (const [indexA, a] of variants.entries()) {
        for (const [indexB, b] of variants.entries()) {
          if (indexA === indexB) continue;
          const forward = await run({ question: item.question, evidence, answerA: a.answer, answerB: b.answer, claimsA: a.claims, claimsB: b.claims });
          const backward = await run({ question: item.question, evidence, answerA: b.answer, answerB: a.answer, claimsA: b.claims, claimsB: a.claims });
          expect(backward.a).toEqual(forward.b);
          expect(backward.b).toEqual(forward.a);
          expect(backward.winner).toBe(forward.winner === 'A' ? 'B' : forward.winner === 'B' ? 'A' : 'tie');
          winners[forward.winner] += 1;
          pairs += 1;
        }
      }
    }
    expect(pairs).toBe(78 * 42);
    // Not a judge that always ties: both positions win often.
    expect(winners.A).toBeGreaterThan(500);
    expect(winners.B).toBe(winners.A);
  });

  it('records who judged, uses no tokens, and validates its options', async () => {
    expect(judge.info).toEqual({ kind: 'heuristic', model: 'heuristic', promptVersion: 'pairwise-heuristic-v25' });
    const judgment = await run({ question: QUESTION, evidence: [], answerA: 'x', answerB: 'y', claimsA: null, claimsB: null });
    expect(judgment).toMatchObject({ status: 'ok', winner: 'tie', costUsd: 0, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } });
    expect(() => createHeuristicPairwiseJudge({ weights: { noFabrication: -1 } })).toThrow(/option weights.noFabrication -1 is invalid/);
    expect(() => createHeuristicPairwiseJudge({ weights: { speed: 1 } as never })).toThrow(/option weights.speed is unknown/);
  });
});

describe('heuristic pairwise judge: a tie on the criteria', () => {
  const contradicted: JudgedClaim = { text: 'Full-time employees get 40 days of annual leave.', verdict: 'contradicted', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: 'says 25 days, not 40 days' };
  const absent: JudgedClaim = { text: 'You get 25 days off plus the bank holidays.', verdict: 'absent', evidenceChunkId: null, note: '' };
  const verified: JudgedClaim = { text: 'Full-time employees receive 25 days of annual leave each year.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' };

  it.each([
    ['an unconfirmed answer over a contradicted one', [absent], [contradicted]],
    ['the larger verified share among unconfirmed answers', [verified, absent], [absent, absent]],
  ])('is broken by the claim verdicts: %s, in both orders', async (_name, better, worse) => {
    const ab = await run({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', claimsA: better, claimsB: worse });
    const ba = await run({ question: QUESTION, evidence: EVIDENCE, answerA: 'B.', answerB: 'A.', claimsA: worse, claimsB: better });
    expect([ab.winner, ba.winner, criteriaTie(ab), criteriaTie(ba)]).toEqual(['A', 'B', true, true]);
    expect(ab.reason).toMatch(/Equal criteria; A is contradicted less, states more of the reference or is supported more by the evidence/);
  });

  it('goes to the side stating more of the reference answer before the verified share (v13), in both orders', async () => {
    const reference = (stated: boolean[]): ReferenceClaim[] => stated.map((isStated, index) => ({ text: `reference claim ${index}`, stated: isStated, note: '' }));
    // A: a paraphrase the word rules could not find, stating both reference claims; B: one true claim and one invented, stating one.
    const judgmentA = judgmentFrom('A.', [absent], { referenceClaims: reference([true, true]) });
    const judgmentB = judgmentFrom('B.', [verified, absent], { referenceClaims: reference([true, false]) });
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA, judgmentB })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'B.', answerB: 'A.', judgmentA: judgmentB, judgmentB: judgmentA })) as PairwiseOk;
    expect([ab.winner, ba.winner, criteriaTie(ab), criteriaTie(ba)]).toEqual(['A', 'B', true, true]);
    expect(ab.reason).toMatch(/A: 0 contradicted, 100% of the reference stated, 0% verified; B: 0 contradicted, 50% of the reference stated, 50% verified/);
    // Without a reference the verified share decides, as before.
    const live = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA: judgmentFrom('A.', [absent]), judgmentB: judgmentFrom('B.', [verified, absent]) })) as PairwiseOk;
    expect(live.winner).toBe('B');
  });

  it('stays a tie when the claim verdicts stand the same', async () => {
    const judgment = await run({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', claimsA: [absent], claimsB: [{ ...absent, text: 'Another unconfirmed claim.' }] });
    expect(judgment.winner).toBe('tie');
  });
});

function criteriaTie(judgment: PairwiseOk): boolean {
  const score = (criteria: PairwiseOk['a']) => Object.entries(DEFAULT_CRITERIA_WEIGHTS).reduce((sum, [key, weight]) => sum + (criteria[key as keyof typeof criteria] ? weight : 0), 0);
  return score(judgment.a) === score(judgment.b);
}

describe('heuristic pairwise judge: reference precedence (pairwise-heuristic-v5)', () => {
  // A correct answer in the user's own words: the word rules find none of its claims (absent), but
  // it states the reference answer; the judge of an offline eval knows that from reference recall.
  const PARAPHRASE = 'You get twenty-five days off every year. Bank holidays come on top.';
  const REFERENCE = (stated: boolean[]): ReferenceClaim[] =>
    stated.map((isStated, index) => ({ text: ['Full-time employees get 25 days of annual leave a year.', 'Plus the 8 bank holidays.', 'Up to 30 days with service.'][index]!, stated: isStated, note: '' }));
  const OFF_TOPIC = 'You must book annual leave through the HR portal at least two weeks ahead.';
  const FABRICATED_DETAIL = 'You get 25 days, and unused days are paid out every December.';
  const side = (answer: string, claims: JudgedClaim[], options: Parameters<typeof judgmentFrom>[2] = {}) => ({ answer, judgment: judgmentFrom(answer, claims, options) });
  const paraphrase = side(PARAPHRASE, claimsOf(PARAPHRASE, 'absent'), { referenceClaims: REFERENCE([true, true, false]) });
  const overRefusal = side(REFUSAL_SENTENCE, []);
  const correctRefusal = side(REFUSAL_SENTENCE, [], { contexts: [{ chunkId: 'x', verdict: 'unrelated', note: '' }] });
  const offTopic = side(OFF_TOPIC, claimsOf(OFF_TOPIC), { answerRelevance: 'off_topic', referenceClaims: REFERENCE([false, false, false]) });

  it.each([
    ['a paraphrase stating the reference beats an over-refusal', paraphrase, overRefusal, 'first'],
    ['a paraphrase stating the reference beats a faithful answer about something else', paraphrase, offTopic, 'first'],
    // A made-up answer stating a third of the reference or less: the reference decides, not the claims' absent verdicts.
    ['a paraphrase stating the reference beats an answer stating a third of it with made-up details', paraphrase, side(FABRICATED_DETAIL, claimsOf(FABRICATED_DETAIL, 'absent'), { referenceClaims: REFERENCE([true, false, false]) }), 'first'],
    // Both state half or more of it: the claims decide (the faithful one wins).
    ['both state the reference: the claims decide', paraphrase, side('Full-time employees get 25 days.', claimsOf('Full-time employees get 25 days.'), { referenceClaims: REFERENCE([true, true, false]) }), 'second'],
    // Not the rule's: a contradicted claim (a confident wrong answer) still loses to "I don't know".
    ['one contradicted claim: the over-refusal still wins', side(PARAPHRASE, [claimsOf(PARAPHRASE, 'absent')[0]!, claimsOf('Bank holidays come on top.', 'contradicted')[0]!], { referenceClaims: REFERENCE([true, true, false]) }), overRefusal, 'second'],
    ['a third of the reference is not enough: the over-refusal still wins', side(PARAPHRASE, claimsOf(PARAPHRASE, 'absent'), { referenceClaims: REFERENCE([true, false, false]) }), overRefusal, 'second'],
    ['a refusal where nothing answers (correct) wins', paraphrase, correctRefusal, 'second'],
    ['without a reference (the live judge) nothing changes: the over-refusal wins', side(PARAPHRASE, claimsOf(PARAPHRASE, 'absent')), overRefusal, 'second'],
  ] as const)('%s, in both orders', async (_name, first, second, expected) => {
    const inOrder = await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: first.answer, answerB: second.answer, judgmentA: first.judgment, judgmentB: second.judgment });
    const swapped = await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: second.answer, answerB: first.answer, judgmentA: second.judgment, judgmentB: first.judgment });
    expect([(inOrder as PairwiseOk).winner, (swapped as PairwiseOk).winner]).toEqual(expected === 'first' ? ['A', 'B'] : ['B', 'A']);
  });

  it('says why in its reason', async () => {
    const judgment = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: overRefusal.answer, answerB: paraphrase.answer, judgmentA: overRefusal.judgment, judgmentB: paraphrase.judgment })) as PairwiseOk;
    expect(judgment.reason).toMatch(/B states the reference answer \(at least half of it contradicting nothing, or three quarters of it with at least as many claims verified as contradicted\); A states little of it/);
  });
});

describe('heuristic pairwise judge: part of an answer beats none of it (pairwise-heuristic-v6)', () => {
  const PARTIAL = 'Full-time employees receive 25 days of annual leave each year.';
  const OFF_TOPIC = 'You must book annual leave through the HR portal at least two weeks ahead.';
  const side = (answer: string, claims: JudgedClaim[], options: Parameters<typeof judgmentFrom>[2] = {}) => ({ answer, judgment: judgmentFrom(answer, claims, options) });
  // Faithful, and answering part of the question (relevance `partial` → outcome `incomplete`).
  const partial = side(PARTIAL, claimsOf(PARTIAL), { answerRelevance: 'partial' });
  const offTopic = side(OFF_TOPIC, claimsOf(OFF_TOPIC), { answerRelevance: 'off_topic' });
  const overRefusal = side(REFUSAL_SENTENCE, []);
  const correct = side(PARTIAL, claimsOf(PARTIAL));

  it.each([
    ['an incomplete answer beats an off-topic one', partial, offTopic, 'first'],
    ['an incomplete answer beats an over-refusal', partial, overRefusal, 'first'],
    ['a correct answer still beats an incomplete one', correct, partial, 'first'],
  ] as const)('%s, in both orders', async (_name, first, second, expected) => {
    const inOrder = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: first.answer, answerB: second.answer, judgmentA: first.judgment, judgmentB: second.judgment })) as PairwiseOk;
    const swapped = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: second.answer, answerB: first.answer, judgmentA: second.judgment, judgmentB: first.judgment })) as PairwiseOk;
    expect([inOrder.winner, swapped.winner]).toEqual(expected === 'first' ? ['A', 'B'] : ['B', 'A']);
  });

  it('says why, and leaves two non-answers tied', async () => {
    const judgment = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: offTopic.answer, answerB: partial.answer, judgmentA: offTopic.judgment, judgmentB: partial.judgment })) as PairwiseOk;
    // Since v22 the non-answer rule decides this pair before the tie-break (same winner).
    expect(judgment.reason).toMatch(/A does not answer the question \(off topic\); B answers the question with a verified claim and none contradicted\./);
    const neither = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: offTopic.answer, answerB: overRefusal.answer, judgmentA: offTopic.judgment, judgmentB: overRefusal.judgment })) as PairwiseOk;
    expect(neither.winner).toBe('tie');
  });
});

describe('heuristic pairwise judge: reference recall against one contradicted claim (pairwise-heuristic-v16)', () => {
  const verified: JudgedClaim = { text: 'Full-time employees receive 25 days of annual leave each year.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' };
  // A claim in the asker's words that the claim rules read against the wrong sentence.
  const misread: JudgedClaim = { text: 'So with your start in March you get the full 25, not fewer.', verdict: 'contradicted', evidenceChunkId: 'leave-policy#booking-annual-leave', note: 'the claim negates "fewer", the evidence does not' };
  const absent: JudgedClaim = { text: 'You get 25 days off plus the bank holidays.', verdict: 'absent', evidenceChunkId: null, note: '' };
  const reference = (stated: number, of: number): ReferenceClaim[] => Array.from({ length: of }, (_, index) => ({ text: `reference claim ${index}`, stated: index < stated, note: '' }));
  const both = async (first: ReturnType<typeof judgmentFrom>, second: ReturnType<typeof judgmentFrom>) => {
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA: first, judgmentB: second })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'B.', answerB: 'A.', judgmentA: second, judgmentB: first })) as PairwiseOk;
    return [ab.winner, ba.winner];
  };
  const overRefusal = judgmentFrom(REFUSAL_SENTENCE, []);

  it.each([
    ['three quarters of the reference, more verified than contradicted: beats an over-refusal', [verified, verified, misread], reference(3, 4), ['A', 'B']],
    // v24: as many verified as contradicted is enough beside three quarters of the reference (v16 wanted more verified).
    ['all of the reference, as many verified as contradicted: beats an over-refusal (v24)', [verified, misread], reference(4, 4), ['A', 'B']],
    ['all of the reference, more contradicted than verified: the over-refusal wins', [verified, misread, misread], reference(4, 4), ['B', 'A']],
    ['all of the reference, nothing verified and one contradicted: the over-refusal wins', [misread, absent], reference(4, 4), ['B', 'A']],
    ['two thirds of the reference with a contradicted claim: the over-refusal wins', [verified, verified, misread], reference(2, 3), ['B', 'A']],
  ])('%s, in both orders', async (_name, claims, referenceClaims, winners) => {
    const answer = judgmentFrom('A.', claims, { referenceClaims });
    expect(await both(answer, overRefusal)).toEqual(winners);
  });

  it.each([
    // A quarter or more apart: the one stating more of the known answer wins, though the other has no contradicted claim.
    ['a gap of a half decides before the contradicted claim', reference(4, 4), reference(2, 4), ['A', 'B']],
    ['a gap of a quarter decides before the contradicted claim', reference(3, 4), reference(2, 4), ['A', 'B']],
    // Closer than that: fewer contradicted claims wins, as before.
    ['a gap of a fifth does not: fewer contradicted claims wins', reference(3, 5), reference(2, 5), ['B', 'A']],
  ])('between two failing answers, %s, in both orders', async (_name, referenceA, referenceB, winners) => {
    const withContradiction = judgmentFrom('A.', [misread, absent], { referenceClaims: referenceA });
    const unconfirmed = judgmentFrom('B.', [absent], { referenceClaims: referenceB });
    expect(await both(withContradiction, unconfirmed)).toEqual(winners);
  });

  it('changes nothing without a reference (the live judge): fewer contradicted claims wins', async () => {
    expect(await both(judgmentFrom('A.', [misread, absent]), judgmentFrom('B.', [absent]))).toEqual(['B', 'A']);
  });
});

describe('heuristic pairwise judge: an over-refusal against an answer (pairwise-heuristic-v17)', () => {
  const verified: JudgedClaim = { text: 'Full-time employees receive 25 days of annual leave each year.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' };
  const absent: JudgedClaim = { text: 'Your manager signs it off the same week.', verdict: 'absent', evidenceChunkId: null, note: '' };
  const contradicted: JudgedClaim = { text: 'Full-time employees get 40 days of annual leave.', verdict: 'contradicted', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: 'says 25 days, not 40 days' };
  const reference = (stated: number, of: number): ReferenceClaim[] => Array.from({ length: of }, (_, index) => ({ text: `reference claim ${index}`, stated: index < stated, note: '' }));
  const overRefusal = judgmentFrom(REFUSAL_SENTENCE, []);
  const correctRefusal = judgmentFrom(REFUSAL_SENTENCE, [], { contexts: [{ chunkId: 'x', verdict: 'unrelated', note: '' }] });
  const both = async (first: ReturnType<typeof judgmentFrom>, second: ReturnType<typeof judgmentFrom>) => {
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: REFUSAL_SENTENCE, judgmentA: first, judgmentB: second })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: REFUSAL_SENTENCE, answerB: 'A.', judgmentA: second, judgmentB: first })) as PairwiseOk;
    return { winners: [ab.winner, ba.winner], reason: ab.reason };
  };

  it.each([
    ['an answer with a verified claim and an unconfirmed one, no reference (live): the answer wins', judgmentFrom('A.', [verified, absent]), overRefusal, ['A', 'B']],
    ['an answer to part of the question: the answer wins', judgmentFrom('A.', [verified, absent], { answerRelevance: 'partial' }), overRefusal, ['A', 'B']],
    ['with a reference, stating more than a third of it: the answer wins', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(2, 4) }), overRefusal, ['A', 'B']],
    // Not the rule's, each for its own reason.
    ['a contradicted claim: the over-refusal wins', judgmentFrom('A.', [verified, contradicted]), overRefusal, ['B', 'A']],
    ['no verified claim: the over-refusal wins', judgmentFrom('A.', [absent]), overRefusal, ['B', 'A']],
    ['an answer about something else: the over-refusal wins', judgmentFrom('A.', [verified, absent], { answerRelevance: 'off_topic' }), overRefusal, ['B', 'A']],
    // v25: a third of it is enough (v17 wanted more than a third); under a third is not.
    ['with a reference, stating a third of it: the answer wins (v25)', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(1, 3) }), overRefusal, ['A', 'B']],
    ['with a reference, stating a quarter of it: the over-refusal wins', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(1, 4) }), overRefusal, ['B', 'A']],
    ['a refusal where nothing answers (correct) wins', judgmentFrom('A.', [verified, absent]), correctRefusal, ['B', 'A']],
  ])('%s, in both orders', async (_name, answer, refusal, winners) => {
    expect((await both(answer, refusal)).winners).toEqual(winners);
  });

  it('says why in its reason', async () => {
    const { reason } = await both(judgmentFrom('A.', [verified, absent]), overRefusal);
    expect(reason).toMatch(/B refuses although a passage answers \(an over-refusal\); A answers the question with a verified claim and none contradicted\./);
  });
});

describe('heuristic pairwise judge: an off-topic answer against an answer (pairwise-heuristic-v22)', () => {
  const verified: JudgedClaim = { text: 'Full-time employees receive 25 days of annual leave each year.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' };
  // Unconfirmed: an everyday word the word rules do not find.
  const absent: JudgedClaim = { text: 'Your manager signs it off the same week.', verdict: 'absent', evidenceChunkId: null, note: '' };
  const contradicted: JudgedClaim = { text: 'Full-time employees get 40 days of annual leave.', verdict: 'contradicted', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: 'says 25 days, not 40 days' };
  // A faithful answer to another question: every claim verified, none about what was asked.
  const quoted: JudgedClaim = { text: 'Requests for 10 or more consecutive working days need 2 months\' notice.', verdict: 'verified', evidenceChunkId: 'leave-policy#booking-annual-leave', note: '' };
  const offTopic = judgmentFrom('B.', [quoted], { answerRelevance: 'off_topic' });
  const reference = (stated: number, of: number): ReferenceClaim[] => Array.from({ length: of }, (_, index) => ({ text: `reference claim ${index}`, stated: index < stated, note: '' }));
  const both = async (first: ReturnType<typeof judgmentFrom>, second: ReturnType<typeof judgmentFrom>) => {
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA: first, judgmentB: second })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'B.', answerB: 'A.', judgmentA: second, judgmentB: first })) as PairwiseOk;
    return { winners: [ab.winner, ba.winner], reason: ab.reason };
  };

  it.each([
    ['an answer with a verified claim and an unconfirmed one, no reference (live): the answer wins', judgmentFrom('A.', [verified, absent]), ['A', 'B']],
    ['an answer to part of the question: the answer wins', judgmentFrom('A.', [verified, absent], { answerRelevance: 'partial' }), ['A', 'B']],
    ['with a reference, stating more than a third of it: the answer wins', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(2, 4) }), ['A', 'B']],
    // Not the rule's: the off-topic answer fabricates nothing and wins on that, as before.
    ['a contradicted claim: the off-topic answer wins', judgmentFrom('A.', [verified, contradicted]), ['B', 'A']],
    ['no verified claim: the off-topic answer wins', judgmentFrom('A.', [absent]), ['B', 'A']],
    // v25: a third of it is enough (v22 wanted more than a third); under a third is not.
    ['with a reference, stating a third of it: the answer wins (v25)', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(1, 3) }), ['A', 'B']],
    ['with a reference, stating a quarter of it: the off-topic answer wins', judgmentFrom('A.', [verified, absent], { referenceClaims: reference(1, 4) }), ['B', 'A']],
  ])('%s, in both orders', async (_name, answer, winners) => {
    expect((await both(answer, offTopic)).winners).toEqual(winners);
  });

  it('a terse answer the relevance check could not place (four words or fewer) is not taken for an answer to another question', async () => {
    const name: JudgedClaim = { text: 'Max Gail', verdict: 'verified', evidenceChunkId: 'knowledge', note: '' };
    const terse = judgmentFrom('B.', [name], { answerRelevance: 'off_topic' });
    expect((await both(judgmentFrom('A.', [verified, absent]), terse)).winners).toEqual(['B', 'A']);
    const five: JudgedClaim = { text: 'Max Gail played Wojo there.', verdict: 'verified', evidenceChunkId: 'knowledge', note: '' };
    expect((await both(judgmentFrom('A.', [verified, absent]), judgmentFrom('B.', [five], { answerRelevance: 'off_topic' }))).winners).toEqual(['A', 'B']);
  });

  it('says why in its reason', async () => {
    const { reason } = await both(judgmentFrom('A.', [verified, absent]), offTopic);
    expect(reason).toMatch(/B does not answer the question \(off topic\); A answers the question with a verified claim and none contradicted\./);
  });
});

describe('heuristic pairwise judge: between two correct answers, the one stating clearly more of the reference (pairwise-heuristic-v23)', () => {
  const verified = (text: string): JudgedClaim => ({ text, verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' });
  const reference = (stated: number, of: number): ReferenceClaim[] => Array.from({ length: of }, (_, index) => ({ text: `reference claim ${index}`, stated: index < stated, note: '' }));
  // Cites the policy by its title (citesRightSource), and states half of the known answer.
  const CITING = 'Full-time employees receive 25 days of annual leave each year (Leave Policy).';
  // States all of it, citing nothing.
  const COMPLETE = 'You get 25 days a year plus the 8 bank holidays, and a day more for each year of service up to 30.';
  const pair = async (first: { answer: string; judgment: ReturnType<typeof judgmentFrom> }, second: { answer: string; judgment: ReturnType<typeof judgmentFrom> }) => {
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: first.answer, answerB: second.answer, judgmentA: first.judgment, judgmentB: second.judgment })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: second.answer, answerB: first.answer, judgmentA: second.judgment, judgmentB: first.judgment })) as PairwiseOk;
    return { winners: [ab.winner, ba.winner], reason: ab.reason, a: ab.a, b: ab.b };
  };
  const side = (answer: string, options: Parameters<typeof judgmentFrom>[2] = {}) => ({ answer, judgment: judgmentFrom(answer, [verified(answer)], options) });

  it('all of the reference against half of it: the complete answer wins in both orders, though the other cites the policy, and says why', async () => {
    const { winners, reason, a, b } = await pair(side(COMPLETE, { referenceClaims: reference(4, 4) }), side(CITING, { referenceClaims: reference(2, 4) }));
    expect([a.answersCorrectly, b.answersCorrectly, a.citesRightSource, b.citesRightSource]).toEqual([true, true, false, true]);
    expect(winners).toEqual(['A', 'B']);
    expect(reason).toContain('Both answer correctly; A states at least a quarter more of the reference answer.');
  });

  it('a gap under a quarter leaves it to the criteria: the citing answer wins', async () => {
    expect((await pair(side(COMPLETE, { referenceClaims: reference(3, 4) }), side(CITING, { referenceClaims: reference(5, 8) }))).winners).toEqual(['B', 'A']);
  });

  it('without a reference (the live judge) the criteria decide: the citing answer wins', async () => {
    expect((await pair(side(COMPLETE), side(CITING))).winners).toEqual(['B', 'A']);
  });
});

describe('heuristic pairwise judge: invented specifics break a tie (pairwise-heuristic-v20)', () => {
  const verified: JudgedClaim = { text: 'Full-time employees receive 25 days of annual leave each year.', verdict: 'verified', evidenceChunkId: 'leave-policy#annual-leave-entitlement', note: '' };
  // Unverified for an everyday word ("knock off"), no figure or name of its own.
  const casual: JudgedClaim = { text: 'you can knock off a bit earlier on those days', verdict: 'absent', evidenceChunkId: null, note: '' };
  // Unverified, with a figure and a name that neither the evidence nor the question holds.
  const invented: JudgedClaim = { text: 'It is added to your balance on MyHarbour each January and lapses after 14 months.', verdict: 'absent', evidenceChunkId: null, note: '' };
  const pair = async (first: ReturnType<typeof judgmentFrom>, second: ReturnType<typeof judgmentFrom>) => {
    const ab = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA: first, judgmentB: second })) as PairwiseOk;
    const ba = (await judge.judge({ question: QUESTION, evidence: EVIDENCE, answerA: 'B.', answerB: 'A.', judgmentA: second, judgmentB: first })) as PairwiseOk;
    return { winners: [ab.winner, ba.winner], reason: ab.reason };
  };

  it('the side whose unverified claim invents no figure or name wins, in both orders, and says why', async () => {
    const { winners, reason } = await pair(judgmentFrom('A.', [verified, casual]), judgmentFrom('B.', [verified, invented]));
    expect(winners).toEqual(['A', 'B']);
    expect(reason).toContain('a figure or a name that neither the evidence nor the question holds');
  });

  it('a figure the question gave is no invention: still a tie', async () => {
    const asked: JudgedClaim = { text: 'So your 14 months count.', verdict: 'absent', evidenceChunkId: null, note: '' };
    const ab = (await judge.judge({ question: `${QUESTION} I have been here 14 months.`, evidence: EVIDENCE, answerA: 'A.', answerB: 'B.', judgmentA: judgmentFrom('A.', [verified, casual]), judgmentB: judgmentFrom('B.', [verified, asked]) })) as PairwiseOk;
    expect(ab.winner).toBe('tie');
  });
});
