import { describe, expect, it } from 'vitest';
import type { JudgmentFlags } from './judgment.js';
import { outcomeOf } from './outcome.js';

// The should-have-refused row and off-topic answers (METHODOLOGY.md, "Outcome table: invented
// off-topic answers").
const unanswerable: JudgmentFlags = {
  faithful: false,
  hallucinated: true,
  refused: false,
  undetermined: false,
  contextSufficient: false,
  answerRelevance: 'off_topic',
  personalData: false,
  refusalVerdict: 'should_have_refused',
  refusalCorrect: false,
};

describe('an off-topic answer with an unsupported claim where no source answers', () => {
  it('is should_have_refused when judged knowing the reference answer', () => {
    expect(outcomeOf({ ...unanswerable, referenceRecall: 0 })).toBe('should_have_refused');
  });

  it('stays hallucinated without a reference answer (the live judge)', () => {
    expect(outcomeOf({ ...unanswerable, referenceRecall: null })).toBe('hallucinated');
    expect(outcomeOf(unanswerable)).toBe('hallucinated');
  });

  it('a faithful off-topic answer stays off_topic, reference or not', () => {
    expect(outcomeOf({ ...unanswerable, faithful: true, hallucinated: false, referenceRecall: 0 })).toBe('off_topic');
  });

  it('where a source answers, an invented answer stays hallucinated', () => {
    expect(outcomeOf({ ...unanswerable, contextSufficient: true, refusalVerdict: 'not_applicable', referenceRecall: 0 })).toBe('hallucinated');
  });
});
