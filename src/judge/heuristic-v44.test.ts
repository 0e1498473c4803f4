import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { loadWordNet } from '../text/wordnet.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { SYNONYM_SENSES } from './heuristic-synonyms.js';
import type { EvidencePassage } from './types.js';

// heuristic-v44: a word is found as another form WordNet records for it (irregular, derivational);
// a word of proportion must be found (METHODOLOGY.md, "Changes in v44").
const judge = createHeuristicFaithfulnessJudge();

const appeals: EvidencePassage[] = [
  chunkPassage('grievance-and-disciplinary#grievance-appeals', { title: 'Grievance and Disciplinary Procedures', section: 'Grievance Appeals', updated: '2025-02-03' }, 'If you are not satisfied with the outcome, you can appeal in writing within 5 working days of receiving it. The appeal will be heard by a more senior manager who has not been involved before, and their decision is final.'),
];
const homeWorking: EvidencePassage[] = [
  chunkPassage('remote-and-hybrid-working#home-working-allowance', { title: 'Remote and Hybrid Working', section: 'Home Working Allowance', updated: '2025-10-01' }, 'From 1 October 2025, employees on a hybrid or home-based contract receive a home working allowance of £30 per month, paid through payroll, towards heating, electricity and broadband.'),
];

describe('other forms of a word (heuristic-v44)', () => {
  it('WordNet gives irregular forms both ways and derivationally related words', () => {
    const wordNet = loadWordNet();
    expect([...wordNet.relatedForms('hears', SYNONYM_SENSES)]).toContain('heard');
    expect([...wordNet.relatedForms('paid', SYNONYM_SENSES)]).toContain('pay');
    expect([...wordNet.relatedForms('decide', SYNONYM_SENSES)]).toContain('decision');
    expect([...wordNet.relatedForms('decide', SYNONYM_SENSES)]).not.toContain('decide');
  });

  it('"hears it" and "what they decide" are found in "is heard by" and "their decision"', async () => {
    // v43: absent ("closest sentence lacks: hears, decide").
    const answer = "A more senior manager who hasn't been involved hears it, and what they decide is final.";
    expect(await claimVerdicts(judge, 'Who looks at my grievance appeal?', appeals, answer)).toEqual(['verified']);
  });

  it('a form of a word does not bridge a figure', async () => {
    const answer = 'A more senior manager who has not been involved hears it within 10 working days.';
    expect(await claimVerdicts(judge, 'Who looks at my grievance appeal?', appeals, answer)).not.toContain('verified');
  });
});

describe('words of proportion (heuristic-v44)', () => {
  const question = 'What does the company give me towards working from home?';

  it('"half" must be found: a claim that the company pays half of something is not verified by a sentence without it', async () => {
    // v43 with the irregular forms: verified ("paid" found "pay", and four of five words covered).
    expect(await claimVerdicts(judge, question, homeWorking, 'The company will also pay half of your broadband contract.')).toEqual(['absent']);
  });

  it('the same claim without the proportion is still judged on its words', async () => {
    expect(await claimVerdicts(judge, question, homeWorking, 'Employees on a hybrid contract are paid an allowance towards broadband.')).toEqual(['verified']);
  });
});
