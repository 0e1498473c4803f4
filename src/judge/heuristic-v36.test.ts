import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { withoutQuantityWord } from './heuristic-analysis.js';
import { readQuestion } from './heuristic-context.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { buildUnits } from './heuristic-units.js';
import type { EvidencePassage } from './types.js';

// heuristic-v36: "how quickly/fast/big …" and "already"/"ever" are no topic words (METHODOLOGY.md, "Changes in v36").
const judge = createHeuristicFaithfulnessJudge();

const grievances: EvidencePassage[] = [
  {
    id: 'grievance-and-disciplinary#raising-a-formal-grievance',
    kind: 'chunk',
    text: '[Source: Grievance and Disciplinary | Section: Raising a Formal Grievance | Last updated: 2025-01-01]\nA grievance meeting will be held within 10 working days of your written grievance being received. You will receive the outcome in writing within 5 working days of the meeting.',
  },
];

describe('quantity words and light adverbs in questions (heuristic-v36)', () => {
  it.each([
    ['How quickly will there be a meeting?', 'how will there be a meeting?'],
    ['How fast do I get it back?', 'how do I get it back?'],
    ['How big is the allowance?', 'how is the allowance?'],
  ])('%s', (question, expected) => {
    expect(withoutQuantityWord(question)).toBe(expected);
  });

  it('leaves them out of the topic a chunk or an answer must cover', () => {
    const { units } = buildUnits(grievances);
    expect([...readQuestion('If I put in a formal grievance, how quickly will there be a meeting? Have I already missed it?', units).topic.keys()]).not.toContain('quickli');
    expect([...readQuestion('Can I already ask to go part-time?', units).topic.keys()]).not.toContain('alreadi');
  });

  it('a correct answer to "how quickly" is no longer off topic without a reference', async () => {
    // v35 weighed "quickly" (in no passage) twice, so the answer covered a third of the topic.
    const judgment = await judge.judge({
      question: 'If I put in a formal grievance, how quickly will there be a meeting?',
      evidence: grievances,
      answer: 'The meeting has to happen within ten working days of them getting your written grievance.',
    });
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });
});
