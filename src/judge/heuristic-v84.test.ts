import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { splitAnswer } from './claims.js';
import { join } from 'node:path';
import { loadLabelFile } from '../../bench/lib/judge-labels.js';
import { labelEvidence } from '../../bench/lib/judge-label-bench.js';

// heuristic-v84: found on new handbook questions and hand-labelled answers written before the judge
// saw them (fixtures/judge-labels/handbook-fresh7.jsonl; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const meta = (title: string, section: string) => ({ title, section, updated: '2025-08-11' });
const printing = [
  chunkPassage(
    'data-protection#clear-desk-and-printing',
    meta('Data Protection and Privacy', 'Clear Desk and Printing'),
    'Lock away papers containing personal or confidential information when you leave your desk, and clear your desk completely at the end of each day. Use the confidential waste bins, never ordinary bins. Printers in all offices use secure print release, so documents print only when you tap your ID badge.',
  ),
];
const sharedLeave = [
  chunkPassage(
    'leave-policy#shared-parental-leave',
    meta('Leave Policy', 'Shared Parental Leave'),
    "Eligible parents can choose to share up to 50 weeks of leave between them by ending the birth parent's or primary adopter's leave early. Shared parental leave is paid at the statutory rate.\n\nYou must give at least 8 weeks' written notice before each block of shared parental leave, and you may book up to 3 separate blocks.",
  ),
];
const compliance = [
  chunkPassage(
    'training-and-development#mandatory-compliance-training',
    meta('Training and Development', 'Mandatory Compliance Training'),
    'Everyone must complete the annual refresher modules in Information Security, Data Protection and the Code of Conduct by 31 March each year. Some roles have additional mandatory modules, such as manual handling for field engineers.\n\nCompliance training is free and does not count against your personal training budget. Overdue training is reported to heads of department each month.',
  ),
];
const stress = [
  chunkPassage(
    'health-and-safety#stress-and-wellbeing',
    meta('Health and Safety', 'Stress and Wellbeing'),
    'If work is causing you stress, talk to your manager or the People team. A stress risk assessment can be completed with you to identify causes and agree actions. Confidential support is also available from mental health first aiders and the Employee Assistance Programme.',
  ),
];
const printer = "i sent something to the printer 10 mins ago and it still hasn't come out, is it broken??";

describe('heuristic-v84', () => {
  it('"won\'t … until" states what "only when" states; a rule "in all offices" backs "all the office printers"', async () => {
    // v83: the "until" clause was read as negating "print" (contradicted), and "in all offices" as no statement about every case.
    const judgment = okJudgment(await judge.judge({ question: printer, evidence: printing, answer: "All the office printers use secure print release, so your document won't print until you tap your ID badge on the printer." }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
    // A real reversal is still caught.
    const reversed = okJudgment(await judge.judge({ question: printer, evidence: printing, answer: "Documents don't need your ID badge: they print as soon as you send them." }));
    expect(reversed.claims.some((claim) => claim.verdict !== 'verified')).toBe(true);
    // A fail either way: judged live, no chunk reads as answering this question and neither claim
    // meets a source, so since the rests-on-nothing row (2026-12-07) it is should_have_refused.
    expect(outcomeOf(reversed)).toBe('should_have_refused');
  });

  it('a participle clause after a comma is a claim of its own, which another sentence of the passage may state', async () => {
    // v83: "…, paid at the statutory rate" stayed with "share up to 50 weeks", which no one sentence states: absent.
    expect(splitAnswer('You can share up to 50 weeks of leave between you, paid at the statutory rate.').claims).toEqual(['You can share up to 50 weeks of leave between you', 'paid at the statutory rate.']);
    const judgment = okJudgment(
      await judge.judge({ question: 'me and my wife want to split the parental leave between us. how much notice do I have to give?', evidence: sharedLeave, answer: "You must give 8 weeks' written notice before each block. Together you can share up to 50 weeks, paid at the statutory rate." }),
    );
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified', 'verified']);
    // A reference answer keeps it with its clause: its claims count for recall.
    expect(splitAnswer('It is £30 per month, paid through payroll to hybrid employees.', { subjectClauses: false }).claims).toEqual(['It is £30 per month, paid through payroll to hybrid employees.']);
  });

  it('"has to be done by" states what "must complete by" states', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'do I have to redo the data protection training every year?', evidence: compliance, answer: 'Yes, it has to be done by 31 March each year.' }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });

  it('"Sorry you\'re going through that" is a social remark, no claim', async () => {
    // v83: it was a claim no passage states: absent, so `hallucinated`.
    const judgment = okJudgment(
      await judge.judge({
        question: "work has been really getting on top of me lately and I'm not sleeping. what support is there?",
        evidence: stress,
        answer: "Sorry you're going through that. Talk to your manager or the People team: a stress risk assessment can be done with you to identify the causes.",
      }),
    );
    expect(judgment.claims.map((claim) => claim.text)).toEqual(['Talk to your manager or the People team', 'a stress risk assessment can be done with you to identify the causes.']);
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
  });

  it('an idiom\'s noun is no topic the passage must hold: the live judge finds the compliance passage answers', async () => {
    // v83: "single" (of "every single year") weighed as a topic word no passage holds: no passage
    // answered, and a right answer was `should_have_refused` without a reference. The item is the
    // hand-labelled one, with the eight chunks retrieval returned.
    const item = loadLabelFile(join(import.meta.dirname, '..', '..', 'fixtures', 'judge-labels', 'handbook-fresh7.jsonl')).items.find((entry) => entry.id === 'l090-correct-1')!;
    expect(item.question).toContain('every single year');
    const judgment = okJudgment(await judge.judge({ question: item.question, evidence: labelEvidence(item), answer: item.answer }));
    expect(judgment.contextSufficient).toBe(true);
    expect(outcomeOf(judgment)).toBe('correct');
  });
});
