import { describe, expect, it } from 'vitest';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { splitAnswer } from './claims.js';

describe('splitAnswer', () => {
  it('splits sentences, then clauses, and takes citations out of the claims', () => {
    expect(splitAnswer('Birth parents get 20 weeks at full pay (Leave Policy, updated 2026-01-12). Partners get 4 weeks; it can be taken in two blocks.')).toEqual({
      claims: ['Birth parents get 20 weeks at full pay.', 'Partners get 4 weeks', 'it can be taken in two blocks.'],
      citations: [{ title: 'Leave Policy', updated: '2026-01-12', text: '(Leave Policy, updated 2026-01-12)', form: 'citation' }],
      refusalClauses: [],
      asides: [],
    });
  });

  it('keeps a condition with what it conditions', () => {
    expect(splitAnswer('If a course costs less than £1,000, you do not need approval.').claims).toEqual(['If a course costs less than £1,000, you do not need approval.']);
  });

  it.each([
    ['but', 'Courses are free but travel is not.', ['Courses are free', 'travel is not.']],
    ['and + new subject', 'You get a decision within 15 working days and it is final.', ['You get a decision within 15 working days', 'it is final.']],
    [', so', 'The budget is £1,500, so you have £300 left.', ['The budget is £1,500', 'you have £300 left.']],
    ['colon', 'Probably yes: three weeks is 15 working days.', ['Probably yes', 'three weeks is 15 working days.']],
  ])('splits clauses at %s', (_name, answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  // "earned but not used," qualifies a noun: one participle, then a comma (v13). Before, "Any
  // holiday you've earned" was a claim of its own, with nothing to check it against.
  it.each([
    ["Any holiday you've earned but not used, including carried-over days, is paid in your final salary.", ["Any holiday you've earned but not used, including carried-over days, is paid in your final salary."]],
    ['Claims approved but not paid, such as late ones, roll over.', ['Claims approved but not paid, such as late ones, roll over.']],
  ])('keeps "but not <word>," inside its clause: %s', (answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('does not split at a colon inside double quotes: a quoted title is one name (v13)', () => {
    expect(splitAnswer('The actor in "Kenneth Williams: Fantabulosa!" is Bob Hoskins. The film \u201cAlien: Covenant\u201d came out: it was released in 2017.').claims).toEqual([
      'The actor in "Kenneth Williams: Fantabulosa!" is Bob Hoskins.',
      'The film \u201cAlien: Covenant\u201d came out',
      'it was released in 2017.',
    ]);
  });

  it.each([
    ['You can claim the course but not the VAT.', ['You can claim the course', 'not the VAT.']],
    ['Claim it, but not later than Friday.', ['Claim it', 'not later than Friday.']],
    ['You may work from home but not abroad.', ['You may work from home', 'not abroad.']],
  ])('still splits at "but" before a clause or a longer phrase: %s', (answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('keeps a quoted table row whole: values stay with their headers and the row label', () => {
    expect(splitAnswer('Location: London (inside the M25); Maximum per night (room only, including VAT): £190. (Travel and Expenses, updated 2025-09-01)').claims).toEqual([
      'Location: London (inside the M25); Maximum per night (room only, including VAT): £190.',
    ]);
  });

  it.each([
    ['a value', 'Deadline: 28 February.', ['Deadline: 28 February.']],
    ['a summary', 'Then 13 weeks unpaid: 52 weeks in total.', ['Then 13 weeks unpaid: 52 weeks in total.']],
    ['an imperative', 'Every password must be unique: never reuse a work password.', ['Every password must be unique: never reuse a work password.']],
  ])('does not split at a colon followed by %s (no verb)', (_name, answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('keeps a number that follows an abbreviation ("ext. 2101") in its sentence, and a sentence that is only a number', () => {
    expect(splitAnswer('Call the People team on ext. 2101.').claims).toEqual(['Call the People team on ext. 2101.']);
    expect(splitAnswer('It is 300. 2003').claims).toEqual(['It is 300.', '2003']);
  });

  it('makes a long parenthesized aside its own claim and leaves short ones in place', () => {
    expect(splitAnswer('The company pays 6% (it was 5% before April 2025) of basic salary (NFL).').claims).toEqual(['The company pays 6% of basic salary (NFL).', 'it was 5% before April 2025']);
  });

  it('drops refusal clauses, lead-ins and pleasantries', () => {
    expect(splitAnswer(`${REFUSAL_SENTENCE}`)).toMatchObject({ claims: [], refusalClauses: [REFUSAL_SENTENCE] });
    // A pointer after a refusal is set aside, not dropped unseen (heuristic-v90 checks a figure in it).
    expect(splitAnswer(`${REFUSAL_SENTENCE} You could ask Payroll.`)).toMatchObject({ claims: [], asides: ['You could ask Payroll.'] });
    expect(splitAnswer("I don't know, but I think it is 16 weeks.").claims).toEqual(['I think it is 16 weeks.']);
    expect(splitAnswer('According to the Leave Policy, partners get 4 weeks. I hope this helps!').claims).toEqual(['partners get 4 weeks.']);
  });

  it("an app's own refusal sentence is one refusal, even when its clauses are no paraphrase of one", () => {
    const refusalSentence = "I don't know: our help centre does not cover that.";
    expect(splitAnswer(refusalSentence, { refusalSentence })).toMatchObject({ claims: [], refusalClauses: [refusalSentence] });
    // Without the app's sentence, its second clause reads as a claim.
    expect(splitAnswer(refusalSentence).claims).toEqual(['our help centre does not cover that.']);
  });

  it('reads several citations in one parenthesis and the [Source: …] form', () => {
    expect(splitAnswer('Yes (Leave Policy, updated 2026-01-12; Training and Development, updated 2025-11-03). [Source: Pay | Last updated: unknown]').citations).toEqual([
      { title: 'Leave Policy', updated: '2026-01-12', text: '(Leave Policy, updated 2026-01-12; Training and Development, updated 2025-11-03)', form: 'citation' },
      { title: 'Training and Development', updated: '2025-11-03', text: '(Leave Policy, updated 2026-01-12; Training and Development, updated 2025-11-03)', form: 'citation' },
      { title: 'Pay', updated: null, text: '[Source: Pay | Last updated: unknown]', form: 'source_line' },
    ]);
  });
});
