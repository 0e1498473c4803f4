import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v54: contractions are verbs, agreeing with the asker is no claim, synonyms of several
// words, and figures offered as alternatives (METHODOLOGY.md, "Changes in v54").
const judge = createHeuristicFaithfulnessJudge();
const passage = (id: string, section: string, body: string): EvidencePassage[] => [chunkPassage(id, { title: 'Handbook', section, updated: '2026-01-12' }, body)];
const verdicts = async (question: string, evidence: EvidencePassage[], answer: string) =>
  okJudgment(await judge.judge({ question, evidence, answer })).claims.map((claim) => `${claim.verdict}: ${claim.text}`);

const absence = passage(
  'sickness-absence#frequent-short-term-absence',
  'Frequent Short-Term Absence',
  'If you have 3 or more separate periods of sickness absence, or 8 or more working days of sickness absence in total, in any rolling 12-month period, your manager will hold an absence review meeting with you. The meeting looks for underlying causes and any support you need; it is not disciplinary in itself.',
);
const parental = passage(
  'leave-policy#parental-leave',
  'Parental Leave',
  'From 1 January 2026, a birth parent or primary adopter (the primary carer) is entitled to 20 weeks of parental leave at full pay, followed by up to 19 weeks at the statutory rate and then 13 weeks unpaid: 52 weeks in total.',
);
const booking = passage(
  'leave-policy#booking-annual-leave',
  'Booking Annual Leave',
  'Request annual leave on MyHarbour before making any bookings. Leave of more than 10 consecutive working days must be requested at least 2 months in advance.',
);
const partner = passage(
  'leave-policy#partner-leave',
  'Partner Leave',
  'The partner of a birth parent, or the secondary adopter, is entitled to 4 weeks of partner leave at full pay. It can be taken as one block of 4 weeks or two blocks of 2 weeks, at any time within 52 weeks of the birth or placement.',
);

describe('heuristic-v54', () => {
  it('reads a contraction as a verb: "it\'s not a disciplinary thing" is a claim checked against the sentence', async () => {
    // v53: no verb from the list, so a bare answer, `absent` ("the answer does not appear in a passage about the question").
    const answer = "Yes, 3 separate spells off sick within 12 months triggers an absence review with your manager, but it's not a disciplinary thing.";
    const judged = await verdicts("I've been off sick three separate times since March. Will that set anything off?", absence, answer);
    expect(judged).toEqual(['verified: Yes, 3 separate spells off sick within 12 months triggers an absence review with your manager', "verified: it's not a disciplinary thing."]);
  });

  it('drops a clause that only agrees with the asker, and still checks the clause that follows', async () => {
    const question = 'A colleague told me Harbourline gives 16 weeks of fully paid parental leave. Is that still right?';
    // v53: "Yes, that's still right" was a claim of its own (`absent`, or `verified` once contractions are verbs).
    expect(await verdicts(question, parental, "Yes, that's still right.")).toEqual([]);
    expect(await verdicts(question, parental, "No, that's not right any more: birth parents get 20 weeks at full pay.")).toEqual(['verified: birth parents get 20 weeks at full pay.']);
  });

  it('finds "ahead" as "in advance", and a wrong figure beside it is still contradicted', async () => {
    const question = 'How far ahead do I need to book three weeks off?';
    // v53: `absent`, "closest sentence lacks: ahead".
    expect(await verdicts(question, booking, 'You must request it at least 2 months ahead.')).toEqual(['verified: You must request it at least 2 months ahead.']);
    expect((await verdicts(question, booking, 'You must request it at least 3 months ahead.'))[0]).toMatch(/^contradicted: /);
  });

  it('reads the figure after "or" with the words before the first ("taken as one block of 4 weeks or two blocks of 2 weeks")', async () => {
    const question = 'Can I split my partner leave?';
    // v53: `contradicted`, "says 4 weeks, not 2 weeks": "taken" described only the 4 weeks.
    expect(await verdicts(question, partner, 'You can take it as two blocks of 2 weeks.')).toEqual(['verified: You can take it as two blocks of 2 weeks.']);
    expect((await verdicts(question, partner, 'You can take it as two blocks of 3 weeks.'))[0]).toMatch(/^contradicted: /);
  });
});
