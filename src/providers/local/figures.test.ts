import { describe, expect, it } from 'vitest';
import { conditionFit, figureAgreement, figureConditions, questionFigures } from './figures.js';

describe('figures', () => {
  it.each([
    ['Do I need approval for a £2,500 course?', 'Training that costs £1,000 or more needs written approval.', 1],
    ['Do I need approval for a £2,500 course?', 'If a course costs less than £1,000, you do not need approval.', -1],
    ['Is a £1,000 ticket under the limit?', 'If a course costs less than £1,000, you do not need approval.', -1],
    ["I'm a grade 3. How much notice do I give?", 'After probation, grades 1 to 4: 1 month.', 1],
    ["I'm a grade 3. How much notice do I give?", 'After probation, grade 5 and above: 3 months.', -1],
    ['I have worked here for 3 years.', 'Length of service: 2 to 5 years; Full pay: 8 weeks.', 1],
    ['How much is the hotel cap?', 'Hotels must not exceed £190 per night.', 0],
  ])('%s | %s → %i', (question, sentence, fit) => {
    expect(conditionFit(questionFigures(question), figureConditions(sentence))).toBe(fit);
  });

  it('a figure written in words agrees with its digits, and another value for the same thing conflicts', () => {
    const asked = questionFigures('I have three years of service.');
    expect(asked).toEqual([{ value: 3, currency: false, words: ['year'] }]);
    expect(figureAgreement(asked, questionFigures('Employees with 3 years of service get 8 weeks.'))).toBe(1);
    expect(figureAgreement(asked, questionFigures('Employees with 5 years of service get 13 weeks.'))).toBe(-1);
    expect(figureAgreement(asked, questionFigures('The canteen opens at 8am.'))).toBe(0);
  });
});
