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

// An answer given with no chunk at all (2026-12-07; METHODOLOGY.md, "Outcome table: an answer with
// no evidence").
describe('an answer where the judge was given no chunk at all', () => {
  it('is should_have_refused whatever its relevance, live too (no reference)', () => {
    expect(outcomeOf({ ...unanswerable, noEvidence: true })).toBe('should_have_refused');
    expect(outcomeOf({ ...unanswerable, noEvidence: true, answerRelevance: 'partial' })).toBe('should_have_refused');
  });

  it('with chunks that hold nothing related, an off-topic invented answer stays hallucinated live', () => {
    expect(outcomeOf({ ...unanswerable, noEvidence: false, evidenceRelevant: false })).toBe('hallucinated');
  });

  it('a refusal with no chunk is still a correct refusal, and flags stored before the flag existed read as before', () => {
    expect(outcomeOf({ ...unanswerable, faithful: null, hallucinated: false, refused: true, answerRelevance: 'refusal', refusalVerdict: 'correct_refusal', refusalCorrect: true, noEvidence: true })).toBe('correct_refusal');
    // `unanswerable` has no noEvidence flag, as flags stored before it existed.
    expect(outcomeOf(unanswerable)).toBe('hallucinated');
  });
});

// An invented answer to a question asking for someone's personal data (2026-12-07; METHODOLOGY.md,
// "Outcome table: invented off-topic answers").
describe('an answer with an unsupported claim to a personal-data question', () => {
  const personal: JudgmentFlags = { ...unanswerable, contextSufficient: true, personalData: true };

  it('is should_have_refused whatever its relevance, live too (no reference)', () => {
    expect(outcomeOf({ ...personal, referenceRecall: null })).toBe('should_have_refused');
    expect(outcomeOf({ ...personal, answerRelevance: 'partial' })).toBe('should_have_refused');
  });

  it('a faithful quote of an unrelated rule stays off_topic, and a refusal a correct refusal', () => {
    expect(outcomeOf({ ...personal, faithful: true, hallucinated: false })).toBe('off_topic');
    expect(outcomeOf({ ...personal, faithful: null, hallucinated: false, refused: true, answerRelevance: 'refusal', refusalVerdict: 'correct_refusal', refusalCorrect: true })).toBe('correct_refusal');
  });
});

// An answer none of whose claims meets any source (2026-12-07 evening; METHODOLOGY.md, "Outcome
// table: answers that rest on nothing").
describe('an off-topic answer that rests on nothing retrieved, where no source answers', () => {
  it('is should_have_refused live too (no reference) when every claim is absent', () => {
    expect(outcomeOf({ ...unanswerable, referenceRecall: null, restsOnNothing: true })).toBe('should_have_refused');
  });

  it('stays hallucinated when a source contradicts or verifies one of its claims', () => {
    expect(outcomeOf({ ...unanswerable, referenceRecall: null, restsOnNothing: false })).toBe('hallucinated');
  });

  it('stays hallucinated where a source answers, and a refusal with such an aside is still judged hallucinated', () => {
    expect(outcomeOf({ ...unanswerable, contextSufficient: true, refusalVerdict: 'not_applicable', restsOnNothing: true })).toBe('hallucinated');
    expect(outcomeOf({ ...unanswerable, refused: true, answerRelevance: 'refusal', refusalVerdict: 'correct_refusal', refusalCorrect: true, restsOnNothing: true })).toBe('hallucinated');
  });
});
