import { describe, expect, it } from 'vitest';
import { isRefusal, isRefusalAside } from '../contract/refusal.js';
import { chunkPassage, claimVerdicts, okJudgment } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v62: questions back are no claims, more refusal wordings and pointers, a claim with two
// figures over neighbouring sentences (METHODOLOGY.md, "Changes in v62").
const judge = createHeuristicFaithfulnessJudge();
const phones: EvidencePassage[] = [chunkPassage('equipment#mobile-phones', { title: 'Equipment', section: 'Mobile Phones', updated: '2025-05-19' }, 'Company mobile phones are provided to field engineers. Reasonable personal use is allowed.')];
const carryOver: EvidencePassage[] = [
  chunkPassage(
    'leave-policy#carrying-over-annual-leave',
    { title: 'Leave Policy', section: 'Carrying Over Annual Leave', updated: '2026-01-12' },
    'You may carry up to 5 days of unused annual leave into the next leave year. Carried-over days must be taken by 31 March, or they are lost.',
  ),
];

describe('a question back states nothing (heuristic-v62)', () => {
  it.each(["Is it a particular gym you're thinking of?", 'Want me to check what other benefits there are?'])('"%s" is no claim', (question) => {
    expect(splitAnswer(`You get 25 days. ${question}`).claims).toEqual(['You get 25 days.']);
  });

  it('a title in quotes that ends with "?" keeps its claim', () => {
    expect(splitAnswer('Kenneth Williams appeared in "Kenneth Williams: Fantabulosa!?"').claims).toHaveLength(1);
  });
});

describe('refusals in chat wording (heuristic-v62)', () => {
  it.each([
    "I'm not aware of a gym discount.",
    'Not that I can find.',
    'No info on that in the handbook, sorry!',
    'Not as far as I can tell from the handbook.',
    "Birthdays aren't mentioned anywhere in the leave policy.",
    "There doesn't seem to be a birthday day off.",
    "I don't see birthday leave in the handbook I've got.",
    "That's not something I've got info on.",
    "Can't find anything on birthday leave.",
  ])('"%s" is a refusal', (answer) => {
    expect(isRefusal(answer)).toBe(true);
  });

  it.each(["I'm not aware of any exceptions, so the 2-week rule applies to you.", 'There seems to be a limit of £50.', 'You can find the form on MyHarbour.'])('"%s" is not', (answer) => {
    expect(isRefusal(answer)).toBe(false);
  });

  it.each(["It might be worth looking on the intranet's benefits page.", 'You could check MyHarbour in case there is something new.', 'Have a look at the benefits section on the intranet.', 'Worth a quick message to the People team though.', "I'd assume not"])(
    'after a refusal, "%s" is no claim',
    (aside) => {
      expect(isRefusalAside(aside)).toBe(true);
    },
  );

  it('a refusal with a question back has no claim to check', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'Is there a staff discount at the gym?', evidence: phones, answer: "I don't have anything on gym discounts, sorry. Is it a particular gym you're thinking of?" }));
    expect(judgment.refused).toBe(true);
    expect(judgment.claims).toEqual([]);
  });
});

describe('two figures over neighbouring sentences (heuristic-v62)', () => {
  it('"Up to 5 days, which must be taken by 31 March" rests on two sentences of one passage', async () => {
    // v61: `absent`, "Up to 5 days is not stated in the closest sentence".
    expect(await claimVerdicts(judge, 'Can I roll over unused holiday?', carryOver, 'Up to 5 days, which must be taken by 31 March.')).toEqual(['verified']);
  });

  it('a wrong figure in either sentence is still not verified', async () => {
    expect(await claimVerdicts(judge, 'Can I roll over unused holiday?', carryOver, 'Up to 10 days, which must be taken by 31 March.')).not.toEqual(['verified']);
    expect(await claimVerdicts(judge, 'Can I roll over unused holiday?', carryOver, 'Up to 5 days, which must be taken by 30 June.')).not.toEqual(['verified']);
  });
});
