import { describe, expect, it } from 'vitest';
import { loadWordNet } from '../text/wordnet.js';
import { claimVerdicts, okJudgment } from '../test-support/judgments.js';
import { expansionOf } from './heuristic-acronyms.js';
import { questionParts } from './heuristic-context.js';
import { referenceClaims } from './heuristic-relevance.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { SYNONYM_SENSES, synonymStems } from './heuristic-synonyms.js';
import type { EvidencePassage } from './types.js';

// heuristic-v16: correct answers in the user's own words (METHODOLOGY.md, "Changes in v16").
const judge = createHeuristicFaithfulnessJudge();

const mileage: EvidencePassage[] = [
  {
    id: 'travel#mileage-rates',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Mileage Rates | Last updated: 2025-09-01]\nIf you use your own vehicle for business journeys, claim mileage at these rates:\n\n| Vehicle | Rate per business mile |\n| --- | --- |\n| Car or van | 45p |\n| Motorcycle | 24p |\n| Bicycle | 20p |',
  },
];
const sickness: EvidencePassage[] = [
  {
    id: 'sickness#reporting',
    kind: 'chunk',
    text: '[Source: Sickness Absence | Section: Reporting Sickness | Last updated: 2025-02-17]\nIf you are too ill to work, phone your line manager by 09:30 on your first day of absence. A text, email or chat message is not enough unless you are physically unable to call.',
  },
];

describe('heuristic judge: verb senses past the third (heuristic-v16)', () => {
  it.each([
    // "ring" as phoning is the verb's fourth sense: v15 found no word for it in "phone".
    ['ringing', 'How do I report being off sick?', sickness, 'You have to ring your line manager.', ['verified']],
    ['ringing at the wrong time', 'How do I report being off sick?', sickness, 'Ring your line manager by 11:00 on your first day of absence.', ['contradicted']],
    // "cycle" is a synonym of both "bicycle" and "motorcycle": which row is meant is unknown, so
    // neither row verifies the claim, whichever figure it gives (v15 verified the motorcycle rate).
    ['cycling, the bicycle rate', 'How much can I claim per mile if I cycle to a customer meeting?', mileage, 'You can claim 20p per mile when you cycle.', ['absent']],
    ['cycling, the motorcycle rate', 'How much can I claim per mile if I cycle to a customer meeting?', mileage, 'You can claim 24p per mile when you cycle.', ['absent']],
    // Named as written, each row is its own.
    ['the bicycle row by name', 'How much can I claim per mile on a bicycle?', mileage, 'You can claim 20p per mile on a bicycle.', ['verified']],
    // The motorcycle row's 24p is another vehicle's rate, not the bicycle's stated elsewhere (v15: absent).
    ['the bicycle row, the wrong rate', 'How much can I claim per mile on a bicycle?', mileage, 'You can claim 24p per mile on a bicycle.', ['contradicted']],
  ])('%s', async (_case, question, evidence, answer, verdicts) => {
    expect(await claimVerdicts(judge, question, evidence, answer)).toEqual(verdicts);
  });

  it('says why an ambiguous row verifies nothing', async () => {
    const judgment = await judge.judge({ question: 'How much per mile if I cycle?', evidence: mileage, answer: 'You can claim 20p per mile when you cycle.' });
    expect(judgment.status === 'ok' && judgment.claims[0]!.note).toMatch(/ambiguous: "cycl" matches two rows of travel#mileage-rates/);
  });

  it('keeps nouns to their first three senses', () => {
    expect(SYNONYM_SENSES).toEqual({ noun: 3, verb: 10, adj: 10, adv: 10 });
    // "class" ("the class of 2025") is a late noun sense of "years".
    expect(synonymStems('years')).not.toContain('class');
    expect(synonymStems('ring')).toContain('phone');
  });
});

describe('WordNet lemmas undo a doubled consonant (heuristic-v16)', () => {
  it.each([
    ['stopped', 'verb', 'stop'],
    ['running', 'verb', 'run'],
    ['planned', 'verb', 'plan'],
    ['bigger', 'adj', 'big'],
  ] as const)('%s → %s', (word, pos, lemma) => {
    expect(loadWordNet().lemmas(word, pos)).toContain(lemma);
  });

  it('does not invent a lemma for a word whose double letter is its own', () => {
    expect(loadWordNet().lemmas('dressed', 'verb')).toEqual(['dress']);
    expect(loadWordNet().lemmas('called', 'verb')).toEqual(['call']);
  });
});

describe('acronyms (heuristic-v16)', () => {
  it.each([
    ['EAP', 'Members can also use the Employee Assistance Programme.', ['Employee', 'Assistance', 'Programme']],
    ['MFA', 'Turn on Multi-Factor Authentication for every account.', ['Multi', 'Factor', 'Authentication']],
    ['NI', 'Your National Insurance number is on your payslip.', ['National', 'Insurance']],
    ['DSE', 'Complete the Display Screen Equipment assessment.', ['Display', 'Screen', 'Equipment']],
    ['PoH', 'Ask the Head of People.', null], // not all capitals: no acronym
    ['EAP', 'Every employee accrues paid leave.', null], // lower-case words spell nothing
    ['EAP', 'The Employee Advice Line is open.', null],
  ])('expansionOf(%s, %s)', (word, text, expected) => {
    expect(expansionOf(word, text)).toEqual(expected);
  });

  const eap: EvidencePassage[] = [
    {
      id: 'benefits#eap',
      kind: 'chunk',
      text: '[Source: Pension and Benefits | Section: Employee Assistance Programme | Last updated: 2025-04-01]\nOur Employee Assistance Programme is a free, confidential service.\n\nMembers of your household aged 16 or over can also use the service.',
    },
    {
      id: 'health#wellbeing',
      kind: 'chunk',
      text: '[Source: Health and Safety | Section: Stress and Wellbeing | Last updated: 2026-02-02]\nStaff can get confidential support from mental health first aiders as well as from the Employee Assistance Programme.',
    },
  ];
  const question = 'Can my husband use the employee assistance helpline as well, or is it just for staff?';

  it('finds an acronym the section heading spells out, in the claim and for answer relevance', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: eap, answer: 'Yes: anyone in your household who is 16 or older can use the EAP too.' }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect(judgment.answerRelevance).toBe('answers');
  });

  it('still checks the figures and the other names', async () => {
    expect(await claimVerdicts(judge, question, eap, 'Anyone in your household who is 14 or older can use the EAP.')).toEqual(['contradicted']);
    expect(await claimVerdicts(judge, question, eap, 'Anyone in your household who is 16 or older can use the OHS.')).toEqual(['absent']);
  });
});

describe('questions asked as alternatives (heuristic-v16)', () => {
  it('reads "X, or is it Y?" as one question, "X, and can I Y?" as two', () => {
    expect(questionParts('Can my husband use the helpline as well, or is it just for staff?')).toEqual(['Can my husband use the helpline as well, or is it just for staff?']);
    expect(questionParts('By what time must I call, and can I just send a message?')).toEqual(['By what time must I call', 'can I just send a message?']);
  });
});

describe('reference claims split where the reference adds a fact (heuristic-v16)', () => {
  const reference = 'A birth parent gets 20 weeks at full pay, followed by up to 19 weeks at the statutory rate. Members of your household can use the Employee Assistance Programme, which is open 24 hours a day.';
  it('splits at ", which" and ", followed by"', () => {
    expect(referenceClaims(reference, 'You get 20 weeks at full pay.').map((claim) => [claim.text, claim.stated])).toEqual([
      ['A birth parent gets 20 weeks at full pay', true],
      ['followed by up to 19 weeks at the statutory rate', false],
      ['Members of your household can use the Employee Assistance Programme', false],
      ['which is open 24 hours a day', false],
    ]);
  });
});
