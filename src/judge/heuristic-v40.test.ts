import { describe, expect, it } from 'vitest';
import { flagsOf } from '../contract/outcome.js';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { bothClaims } from './heuristic-yes-no.js';
import type { EvidencePassage } from './types.js';

// heuristic-v40: a bare yes/no to a question about two things at once (METHODOLOGY.md, "Changes in v40").
const judge = createHeuristicFaithfulnessJudge();

const cities: EvidencePassage[] = [
  {
    id: 'knowledge',
    kind: 'chunk',
    text: 'Wenling is a coastal county-level city in Zhejiang province, China. Xinzheng is a small county-level city of Zhengzhou in Henan province of Central China. Osaka is a city in Japan.',
  },
];

describe('bare yes/no answers to "both" questions (heuristic-v40)', () => {
  it.each([
    ['Are Wenling and Xinzheng both in China?', ['Wenling are in China', 'Xinzheng are in China']],
    ['Are both Tim McIlrath and Spike Slawson American punk rock musicians?', ['Tim McIlrath are American punk rock musicians', 'Spike Slawson are American punk rock musicians']],
    ['Are both The New Pornographers and Kings of Leon American rock bands?', ['The New Pornographers are American rock bands', 'Kings of Leon are American rock bands']],
    ['Can I claim both?', null],
    ['Are both contractors and interns covered?', null],
  ])('%s', (question, claims) => {
    expect(bothClaims(question)).toEqual(claims);
  });

  it('"yes" is verified when the evidence states both claims, and "no" contradicted', async () => {
    // v39 judged both undetermined: the answer holds no word to check.
    const yes = okJudgment(await judge.judge({ question: 'Are Wenling and Xinzheng both in China?', evidence: cities, answer: 'Yes.' }));
    expect(yes.claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect(flagsOf(yes)?.hallucinated).toBe(false);
    const no = okJudgment(await judge.judge({ question: 'Are Wenling and Xinzheng both in China?', evidence: cities, answer: 'no' }));
    expect(no.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });

  it('a claim the evidence does not state decides nothing: the answer stays undetermined', async () => {
    // "Osaka in China" is absent (the sentence says Japan, which a word matcher cannot read as "not China").
    const judgment = okJudgment(await judge.judge({ question: 'Are Wenling and Osaka both in China?', evidence: cities, answer: 'no' }));
    expect(judgment.claims).toEqual([]);
  });
});
