import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { claimVerdicts, okJudgment } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v38: another person's pay review, hedges, verbs of not doing, ", and <pronoun> …"
// clauses (METHODOLOGY.md, "Changes in v38").
const judge = createHeuristicFaithfulnessJudge();

const pension: EvidencePassage[] = [
  {
    id: 'pension-and-benefits#pension-contributions',
    kind: 'chunk',
    text: '[Source: Pension and Benefits | Section: Pension Contributions | Last updated: 2025-04-01]\nIf you choose to pay more than 4%, the company matches each extra 1% you pay, up to a maximum company contribution of 8%.',
  },
];

const fire: EvidencePassage[] = [
  {
    id: 'health-and-safety#fire-safety-and-evacuation',
    kind: 'chunk',
    text: "[Source: Health and Safety | Section: Fire Safety and Evacuation | Last updated: 2025-01-01]\nIf the alarm sounds at any other time, leave by the nearest exit, do not use the lifts and go to your office's assembly point.",
  },
];

const passwords: EvidencePassage[] = [
  {
    id: 'it-and-security#passwords',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Passwords | Last updated: 2025-01-01]\nPasswords for standard user accounts must be at least 14 characters long.',
  },
];

describe("another person's pay review is personal data (heuristic-v38)", () => {
  it('refusing to check what a named colleague got is a correct refusal', async () => {
    // v37 read no personal data ("Daniel Hughes" opens the question; "pay review" was no data kind),
    // and the pension sentence's 8% made the chunk answer: an over-refusal.
    const judgment = await judge.judge({
      question: 'Daniel Hughes reckons he got 8% in the April pay review. Can you check what he really got?',
      evidence: pension,
      answer: "I can't share personal or confidential information about an individual.",
    });
    expect(okJudgment(judgment).personalData).toBe(true);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });
});

describe('hedges and verbs of not doing (heuristic-v38)', () => {
  it('"probably" states nothing of its own', async () => {
    expect(await claimVerdicts(judge, 'How long does my password have to be?', passwords, 'It probably has to be at least 14 characters long.')).toEqual(['verified']);
  });

  it('"skip the lifts" is "do not use the lifts"; "use the lifts" is still the opposite', async () => {
    const question = 'The fire alarm is going off. What do we do?';
    expect(await claimVerdicts(judge, question, fire, 'Leave by the nearest exit, skip the lifts and go to your assembly point.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, fire, 'Leave by the nearest exit, avoid the lifts and go to your assembly point.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, fire, 'Leave by the nearest exit, use the lifts and go to your assembly point.')).toEqual(['contradicted']);
  });
});

describe('", and <pronoun> …" ends a claim in an answer (heuristic-v38)', () => {
  it.each([
    ["Yes, you'll get an absence review meeting, and after that you'll need a fit note for every sick day.", ["Yes, you'll get an absence review meeting", "you'll need a fit note for every sick day."]],
    ["You can appeal within 5 working days, and they'll decide within a week.", ['You can appeal within 5 working days', "they'll decide within a week."]],
    // "and" inside a list, with no pronoun after it, is not split.
    ['Bring your passport, your P45 and your bank details.', ['Bring your passport, your P45 and your bank details.']],
  ])('%s', (answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('a reference answer is split as before', () => {
    const answer = "Yes, you'll get an absence review meeting, and after that you'll need a fit note for every sick day.";
    expect(splitAnswer(answer, { subjectClauses: false }).claims).toEqual([answer]);
  });
});
