import { describe, expect, it } from 'vitest';
import { claimTokens, containsVerbatim } from './spotcheck.js';

describe('spot-check tokens', () => {
  it.each([
    ['Phone James Okafor by 09:30 on ext. 2100.', ['09:30', '2100', 'James', 'Okafor']],
    ['Mileage is 45p per mile up to 10,000 miles; HMRC rates apply via MyHarbour.', ['45p', '10,000', 'HMRC', 'MyHarbour']],
    ['Use the P45 form.', ['P45']],
    ['The limit is £1,000.', ['£1,000']],
    ['Parental leave lasts 20 weeks at full pay.', ['20']],
    ['Annual leave is generous.', []],
  ])('finds the identifiers, numbers and names in %j', (claim, expected) => {
    expect(claimTokens(claim).map((token) => token.text)).toEqual(expected);
  });

  it.each([
    ['you get 25 days.', '25', true],
    ['up to 25.', '25', true],
    ['£25 per day', '£2', false],
    ['1.25 days', '25', false],
    ['pay 25.5', '25', false],
    ['250 people', '25', false],
    ['phone by 09:30', '09:30', true],
    ['see MyHarbour today', 'MyHarbour', true],
    ['see MyHarbourApp', 'MyHarbour', false],
  ])('containsVerbatim(%j, %j) is %s', (text, token, expected) => {
    expect(containsVerbatim(text, token)).toBe(expected);
  });
});
