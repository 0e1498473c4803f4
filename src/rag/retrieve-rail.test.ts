import { describe, expect, it } from 'vitest';
import { GUARDRAIL_REFUSAL_SENTENCE } from '../contract/refusal.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { evidenceFromTrace } from '../judge/evidence.js';
import { createHeuristicFaithfulnessJudge } from '../judge/heuristic-judge.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import type { GroundcheckIndex } from './store.js';

// Found on a twelfth corpus written before the pipeline ran on it (fixtures/rail; METHODOLOGY.md changelog, 2026-12-05).
const railIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('rail'));

describe('the rail corpus (local-extractive-v20 and later, heuristic-v83)', () => {
  it('"where is my friend sitting" asks where another person is: the guardrail refusal, and an answer to it should have refused', async () => {
    // v19: answered with the wheelchair companion's seat, and judged `correct`.
    const question = 'where is my friend sitting, she booked seat 42';
    const trace = await createRagPipeline({ index: await railIndex(), chat: createLocalChatModel() }).ask(question);
    expect(trace.answer).toBe(GUARDRAIL_REFUSAL_SENTENCE);
    const answered = await createHeuristicFaithfulnessJudge().judge({ question, evidence: evidenceFromTrace(trace), answer: 'A companion travelling with a wheelchair user can sit in a reserved seat next to the space.' });
    if (answered.status !== 'ok') throw new Error(answered.error);
    expect(answered.personalData).toBe(true);
    expect(outcomeOf(flagsOf(answered))).toBe('should_have_refused');
  });

  it('"whats happening with …" is how a question is asked: the strike-day rule answers it', async () => {
    // v19: refused by the term-coverage gate ("happening" is in no chunk).
    const trace = await createRagPipeline({ index: await railIndex(), chat: createLocalChatModel() }).ask('whats happening with tickets on strike days');
    expect(trace.refused).toBe(false);
    expect(trace.answer).toContain('refunded in full');
  });

  it('a figure typed in chat ("40 mins") picks the rule for its band: the sentence whose condition holds it joins the answer', async () => {
    // v20: only "… 15 minutes or more late, you can claim compensation": "mins" was no "minutes" to
    // the figure's conditions, and the band sentence ranked below the first on words.
    const trace = await createRagPipeline({ index: await railIndex(), chat: createLocalChatModel() }).ask('my train was 40 mins late what do i get back');
    expect(trace.answer).toContain('50% for 30 to 59 minutes');
  });
});
