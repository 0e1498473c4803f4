import { describe, expect, it } from 'vitest';
import { acronymKey, acronymTable, isQuestionAcronym, isTypedAcronym, replaceAcronyms, spellOutAcronyms } from './acronyms.js';

describe('acronyms the documents spell out', () => {
  it('reads acronyms as typed: capitals, a digit and capitals, a plural s', () => {
    for (const word of ['SSO', 'SPL', '2FA', 'SARs', 'AL']) expect(isQuestionAcronym(word), word).toBe(true);
    for (const word of ['sso', 'Sso', 'A', 'TOOLONGX', 'P45', '2fa']) expect(isQuestionAcronym(word), word).toBe(false);
    expect([acronymKey('SARs'), acronymKey('2FA'), acronymKey('SOS')]).toEqual(['sar', '2fa', 'sos']);
  });

  it('reads an acronym typed in lower case: letters WordNet does not know, or a digit and letters', () => {
    for (const word of ['spl', 'sso', '2fa', 'SPL']) expect(isTypedAcronym(word), word).toBe(true);
    // English words ("eat", "pip"), and words too long or too short, are never read as acronyms.
    for (const word of ['eat', 'pip', 'toil', 'a', 'holidays']) expect(isTypedAcronym(word), word).toBe(false);
    const source = { written: () => new Set<string>(), spellings: () => new Map([['spl', 'shared parental leave'], ['eat', 'employee action team']]) };
    expect(spellOutAcronyms('how much spl can i take', source)).toBe('how much shared parental leave can i take');
    expect(spellOutAcronyms('can i eat at my desk', source)).toBe('can i eat at my desk');
  });

  it('spells out from headings, every run of their words, hyphenated parts and number words included', () => {
    const table = acronymTable([
      { heading: 'Leave Policy. Shared Parental Leave', text: 'Parents can share up to 50 weeks.' },
      { heading: 'Security. Two-factor authentication', text: 'Admins can require it.' },
    ]);
    expect(table.get('spl')).toBe('shared parental leave');
    expect(table.get('pl')).toBe('parental leave');
    expect(table.get('2fa')).toBe('two factor authentication');
  });

  it('spells out from capitalized runs of the text, a stopword counting only inside a compound', () => {
    const table = acronymTable([{ heading: 'Plans. Pricing', text: 'It includes any Statutory Sick Pay you are owed. Enterprise adds Single Sign-On.' }]);
    expect(table.get('ssp')).toBe('statutory sick pay');
    expect(table.get('sso')).toBe('single sign on');
  });

  it('never reads lower-case runs of running text, a stopword outside a compound, or a sentence-initial capital alone', () => {
    const table = acronymTable([{ heading: 'Data. Handling', text: 'Please copy personal data only when needed. Shared parental leave is paid. Your salary and rates are reviewed.' }]);
    expect(table.get('cpd')).toBeUndefined();
    expect(table.get('spl')).toBeUndefined();
    expect(table.get('sar')).toBeUndefined();
  });

  it('replaces only the acronyms it is given words for', () => {
    expect(replaceAcronyms('how much SPL and TOIL do I get', (acronym) => (acronym === 'SPL' ? 'shared parental leave' : null))).toBe('how much shared parental leave and TOIL do I get');
  });
});
