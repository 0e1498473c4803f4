import { describe, expect, it } from 'vitest';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { referenceClaims } from './heuristic-relevance.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';

// heuristic-v126: reference recall reads the answer's synonyms of a reference claim's words, and
// three everyday ways of writing a figure are read ("a working day", "you have a month", a
// lower-case month alone).

function figures(text: string): string[] {
  return analyze(text).quantities.map(({ quantity }) =>
    quantity.kind === 'number' ? `${quantity.dimension}:${quantity.low}-${quantity.high}` : `date:${quantity.month}/${quantity.day}`,
  );
}

describe('heuristic-v126: reference recall with synonyms', () => {
  it('states a reference claim said with a synonym of its word', () => {
    const question = analyze('How much can I claim per mile if I cycle to a customer meeting?').stemSet;
    const [claim] = referenceClaims('Bicycle mileage is paid at 20p per business mile.', 'You can claim 20p per mile when you cycle.', question);
    expect(claim).toMatchObject({ stated: true });
  });

  it('still needs the figure: a synonym never makes another figure agree', () => {
    const question = analyze('How much can I claim per mile if I cycle to a customer meeting?').stemSet;
    const [claim] = referenceClaims('Bicycle mileage is paid at 20p per business mile.', 'You can claim 25p per mile when you cycle.', question);
    expect(claim).toMatchObject({ stated: false, note: 'not stated: 20p' });
  });

  it('a judged answer states the reference in its own words', async () => {
    const judge = createHeuristicFaithfulnessJudge();
    const mileage = chunkPassage(
      'travel#mileage',
      { title: 'Travel', section: 'Mileage Rates', updated: '2025-09-01' },
      'Bicycle mileage is paid at 20p per business mile. Motorcycles are paid at 24p per business mile.',
    );
    const judgment = okJudgment(
      await judge.judge({
        question: 'How much can I claim per mile if I cycle to a customer meeting?',
        evidence: [mileage],
        answer: 'You can claim 20p per mile when you cycle.',
        reference: 'Bicycle mileage is paid at 20p per business mile.',
      }),
    );
    expect(judgment.referenceRecall).toBe(1);
  });
});

describe('heuristic-v126: figures as casual answers write them', () => {
  it('reads "a working day" as one working day, as "1 working day" is', () => {
    expect(figures('Send it on within a working day.')).toEqual(figures('Send it on within 1 working day.'));
    expect(figures('Send it on within a working day.')).toEqual(['day:-Infinity-1']);
  });

  it('reads "you have a month" and "they\'ve got a week" as one month and one week', () => {
    expect(figures('We have a month to reply.')).toEqual(['month:1-1']);
    expect(figures("They've got a week to decide.")).toEqual(['week:1-1']);
    // A rate is still no span of time.
    expect(figures('You get £30 a month.')).toEqual(['GBP:30-30']);
  });

  it('reads a lower-case month alone, but not "march" or "may"', () => {
    expect(figures('the exact days go up on the intranet each september')).toEqual(['date:9/null']);
    expect(figures('we march on, and you may go')).toEqual([]);
  });

  it('agrees with the reference: "within a working day" states "within 1 working day"', () => {
    const [claim] = referenceClaims('Forward it to the Privacy team within 1 working day.', 'Send it on to the Privacy team within a working day.');
    expect(claim).toMatchObject({ stated: true });
  });
});
