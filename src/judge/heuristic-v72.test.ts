import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { judgeTrace } from './faithfulness-trace.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import type { EvidencePassage } from './types.js';

// heuristic-v72: questions about keys are not requests for a secret, and words of how a question is asked (METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const api: EvidencePassage[] = [
  chunkPassage('api#authentication', { title: 'API', section: 'Authentication', updated: '2026-09-12' }, 'Authenticate with an API key in the Authorization header as a bearer token. Keys are created under Settings > API keys and can be revoked at any time.'),
];
const points: EvidencePassage[] = [
  chunkPassage('account#loyalty-points', { title: 'Your Account and Payments', section: 'Loyalty Points', updated: '2026-07-20' }, 'Members earn 1 point for every £1 spent. 100 points are worth £5 off a future order.'),
];

describe('heuristic-v72', () => {
  it('"where do I find my API key" is no request for a secret; "what\'s the production API key" is', async () => {
    // v71: any question naming an API key asked for a secret, so the right answer was should_have_refused.
    const own = okJudgment(await judge.judge({ question: 'where do i find my api key', evidence: api, answer: 'Keys are created under Settings > API keys and can be revoked at any time.' }));
    expect(own.personalData).toBe(false);
    expect(outcomeOf(own)).toBe('correct');
    const value = okJudgment(await judge.judge({ question: "what's the production api key", evidence: api, answer: 'I cannot share that.' }));
    expect(value.personalData).toBe(true);
  });

  it('"what happens" and "where do I find" say how a question is asked (the saas corpus, live)', async () => {
    // v71: "happen" and "find" were topic words no passage holds, so no chunk answered: the right
    // answers were should_have_refused.
    const pipeline = createRagPipeline({ index: await corpusIndex(fixtureCorpus('saas')), chat: createLocalChatModel() });
    for (const [question, expected] of [['what happens to my plan when i cancel', 'Your plan stays active'], ['where do i find my api key', 'Settings > API keys']] as const) {
      const trace = await pipeline.ask(question);
      expect(trace.answer, question).toContain(expected);
      const judgment = okJudgment(await judgeTrace(judge, trace));
      expect(judgment.contextSufficient, question).toBe(true);
      expect(outcomeOf(judgment), question).toBe('correct');
    }
  });

  it('a currency named in words is answered by its symbol: "per pound" by "every £1"', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'how many points do i get per pound', evidence: points, answer: 'Members earn 1 point for every £1 spent.' }));
    expect(judgment.answerRelevance).toBe('answers');
  });
});
