import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { renderRedactionPlaceholder, withoutRedactionPlaceholders } from '../contract/redaction.js';
import { createRedactor } from '../capture/redact.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v102: a redaction placeholder in the question is no topic word. The live judge reads
// questions as the capture stored them, redacted; found on the README walk (a correct mileage
// answer judged off topic live because the query ended "call me on [phone:c2a8283c]").
const judge = createHeuristicFaithfulnessJudge();
const evidence = [
  chunkPassage(
    'travel-and-expenses#mileage-rates',
    { title: 'Travel and Expenses', section: 'Mileage Rates', updated: '2025-09-01' },
    'If you use your own vehicle for business journeys, claim mileage at these rates:\n\n| Vehicle | Rate per business mile |\n| --- | --- |\n| Car or van, first 10,000 business miles in the tax year | 45p |\n| Car or van, each business mile over 10,000 in the tax year | 25p |\n| Motorcycle | 24p |',
  ),
  chunkPassage('travel-and-expenses#hotel-nightly-caps', { title: 'Travel and Expenses', section: 'Hotel Nightly Caps', updated: '2025-09-01' }, 'Hotels must not exceed £180 a night in London and £120 a night elsewhere in the UK.'),
];
// The offline answerer's own answer to it.
const answer = 'Vehicle: Car or van, first 10,000 business miles in the tax year; Rate per business mile: 45p. Vehicle: Car or van, each business mile over 10,000 in the tax year; Rate per business mile: 25p. (Travel and Expenses, updated 2025-09-01)';

describe('heuristic-v102', () => {
  it.each([
    ['a phone token beginning with a letter', 'What is the mileage rate for a car? call me on [phone:c2a8283c]'],
    ['two tokens of letters', 'What is the mileage rate for a car? my number is [phone:abcdef12], or email [email:fe0a1b2c]'],
    ['a plain mark of the first release', 'What is the mileage rate for a car? call me on [phone]'],
  ])('%s: the correct answer to the redacted question is correct, as it is for the question without it', async (_name, question) => {
    const redacted = okJudgment(await judge.judge({ question, evidence, answer }));
    const plain = okJudgment(await judge.judge({ question: 'What is the mileage rate for a car?', evidence, answer }));
    expect(outcomeOf(flagsOf(plain))).toBe('correct');
    expect(outcomeOf(flagsOf(redacted))).toBe('correct');
    expect(redacted.contexts.map((context) => context.verdict)).toEqual(plain.contexts.map((context) => context.verdict));
  });

  it('the placeholder format is one pair: what the redactor writes is what the judge takes out, and nothing else', () => {
    const redacted = createRedactor({ key: 'a key of sixteen characters' }).redactText('call 07700 900123 or jo@example.com, card 4111 1111 1111 1111, NI QQ 12 34 56 C');
    expect(withoutRedactionPlaceholders(redacted).replace(/\s+/g, ' ').trim()).toBe('call or , card , NI');
    expect(withoutRedactionPlaceholders(`room ${renderRedactionPlaceholder('number', 'zzzzzzzz')} [phone:abc] [mobile:c2a8283c]`)).toBe('room [number:zzzzzzzz] [phone:abc] [mobile:c2a8283c]');
  });
});
