import { describe, expect, it } from 'vitest';
import { expandCasual } from './casual.js';

describe('expandCasual', () => {
  it.each([
    ['ive asked my mgr about hols', "I've asked my manager about holidays"],
    ['isnt there a wfh allowance?', "isn't there a work from home allowance?"],
    ['how often should we do 1:1s', 'how often should we do one-to-one meetings'],
    ['DONT know, xmas maybe', "don't know, Christmas maybe"],
    ['btw r u allowed to claim train tix abt that lol', 'by the way are you allowed to claim train tickets about that '],
  ])('%s', (typed, written) => {
    expect(expandCasual(typed)).toBe(written);
  });

  it.each([
    // English words that are also apostrophe-less contractions, and words containing an abbreviation.
    'I wont be in; ill tell him its fine, lets see',
    'My ID card, were you told?',
    'Ask the hols4u team', // part of a longer word
    // Letters inside codes and abbreviations are no chat words.
    'An R&B singer from the U.S. army, u.s. too, r/d and a mgrs-only list',
    'Meeting at 11:15 in room 1:10',
    "I've already written it out",
  ])('leaves alone: %s', (text) => {
    expect(expandCasual(text)).toBe(text);
  });
});

describe('"til" (2026-12-05)', () => {
  it('is "until"; "till" (a word too) is left alone', () => {
    expect(expandCasual('til what time can i order food')).toBe('until what time can i order food');
    expect(expandCasual('pay at the till')).toBe('pay at the till');
  });
});

describe('slang and idiom with one meaning (2026-12-05)', () => {
  it('"nicked" is "stolen", "money back" is "refund"', () => {
    expect(expandCasual('someone nicked my bike')).toBe('someone stolen my bike');
    expect(expandCasual('can I get my money back')).toBe('can I get my refund');
    expect(expandCasual('the money is back in my account')).toBe('the money is back in my account');
    expect(expandCasual('im moving house next week')).toBe("I'm moving home next week");
    expect(expandCasual('i clicked a dodgy link')).toBe('i clicked a suspicious link');
  });
});

describe('"hes", "wheres" (2026-12-05)', () => {
  it('are "he\'s" and "where\'s"', () => {
    expect(expandCasual('can you check hes ok')).toBe("can you check he's ok");
    expect(expandCasual('wheres the first aid kit')).toBe("where's the first aid kit");
  });
});

describe('family words and "self cert" (2026-12-07)', () => {
  it('a grandparent by any name, and self-certifying', () => {
    expect(expandCasual('my nan died on sunday')).toBe('my grandparent died on sunday');
    expect(expandCasual('my gran is in hospital')).toBe('my grandparent is in hospital');
    expect(expandCasual('my Grandad passed away')).toBe('my grandparent passed away');
    expect(expandCasual('how many days can i self cert for')).toBe('how many days can i self-certify for');
    expect(expandCasual('is a self-cert form ok')).toBe('is a self-certify form ok');
  });

  it('leaves "nan" alone without a possessive: it is also an error message\'s NaN', () => {
    expect(expandCasual('Expected a number but got NaN')).toBe('Expected a number but got NaN');
    expect(expandCasual('the total is nan')).toBe('the total is nan');
  });
});

describe('"kick in" and "hi-vis" (2026-12-07)', () => {
  it('are "take effect" and "high-visibility"', () => {
    expect(expandCasual('when does my pay rise kick in')).toBe('when does my pay rise take effect');
    expect(expandCasual('it kicks in next month')).toBe('it takes effect next month');
    expect(expandCasual('do i need my own hi-vis')).toBe('do i need my own high-visibility');
    expect(expandCasual('Hi vis and boots')).toBe('high-visibility and boots');
  });

  it('leaves "kick" and "hi" alone elsewhere', () => {
    expect(expandCasual('can i kick off the meeting')).toBe('can i kick off the meeting');
    expect(expandCasual('hi, how do i book leave')).toBe('hi, how do i book leave');
  });
});
