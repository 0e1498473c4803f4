import { describe, expect, it } from 'vitest';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';

// heuristic-v127: correct claims no longer read as contradicted where a sentence's negation was cut
// off by an aside (an acronym in brackets, a list of examples), or a bound hid its unit.
const judge = createHeuristicFaithfulnessJudge();
const policy = (id: string, section: string, text: string) => chunkPassage(id, { title: 'Policy', section, updated: '2026-01-12' }, text);

async function verdicts(question: string, answer: string, text: string): Promise<string[]> {
  const judgment = okJudgment(await judge.judge({ question, evidence: [policy('policy#rule', 'Rule', text)], answer }));
  return judgment.claims.map((claim) => claim.verdict);
}

describe('heuristic-v127: negation read across asides', () => {
  it('an acronym in brackets does not cut the negation of its sentence', async () => {
    const text = 'While on parental or adoption leave you may work up to 10 keeping in touch (KIT) days without ending your leave.';
    expect(await verdicts('shared parental leave?', 'You can work up to 10 keeping in touch days without ending your leave.', text)).toEqual(['verified']);
    // Still caught: a claim saying the opposite.
    expect(await verdicts('shared parental leave?', 'Working a keeping in touch day ends your leave.', text)).not.toContain('verified');
  });

  it('a list of examples inside a clause does not cut the negation', async () => {
    const text = 'You will not suffer any detriment, such as dismissal, demotion or unfair treatment, for raising a genuine concern, even if it turns out to be mistaken.';
    expect(analyze(text).negatedStems.has('concern')).toBe(true);
    expect(await verdicts('Will I get in trouble for reporting this?', "You won't suffer any detriment for raising a genuine concern, even if it turns out to be mistaken.", text)).toEqual(['verified']);
  });

  it('a wrong claim is still contradicted through the folded aside', async () => {
    const text = 'You will not suffer any detriment, such as dismissal, demotion or unfair treatment, for raising a genuine concern, even if it turns out to be mistaken.';
    expect(await verdicts('Will I get in trouble for reporting this?', 'You can be dismissed for raising a genuine concern.', text)).not.toContain('verified');
  });
});

describe('heuristic-v127: figures', () => {
  it('keeps the unit after a bound written after the number', () => {
    const [spells, days] = analyze('3 or more separate periods of sickness absence, or 8 or more working days of sickness absence in total').quantities.map(({ quantity }) => quantity);
    expect(spells).toMatchObject({ dimension: 'count', low: 3, high: Infinity });
    expect(days).toMatchObject({ dimension: 'day', low: 8, high: Infinity });
  });

  it('takes the unit only right after the bound: "grade 4 and above receive TOIL hour for hour" is no four hours', () => {
    const [grade] = analyze('grade 4 and above receive TOIL hour for hour').quantities.map(({ quantity }) => quantity);
    expect(grade).toMatchObject({ dimension: 'label:grade', low: 4 });
  });
});
