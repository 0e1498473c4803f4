import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { phraseSynonyms } from './heuristic-synonyms.js';
import type { EvidencePassage } from './types.js';

// heuristic-v18: phrases, abbreviations and "no later than" (METHODOLOGY.md, "Changes in v18").
const judge = createHeuristicFaithfulnessJudge();

const phishing: EvidencePassage[] = [
  {
    id: 'it#phishing',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Phishing | Last updated: 2025-07-14]\nIf you have already clicked a link, call the IT Service Desk on ext. 4000 immediately and change your password.',
  },
];
const devices: EvidencePassage[] = [
  {
    id: 'it#lost-devices',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Lost or Stolen Devices | Last updated: 2025-07-14]\nIf a company laptop is lost or stolen, report it to the IT Service Desk no later than 1 hour after you notice.',
  },
];

describe('phrases WordNet knows as one word (heuristic-v18)', () => {
  it('maps both words of a phrase to its synonyms, verbs and adverbs only', () => {
    const text = 'Ring the desk straight away and pay back the cost.';
    const phrases = phraseSynonyms(text, analyze(text).written);
    expect(phrases.get('straight')).toContain('immedi');
    expect(phrases.get('awai')).toContain('immedi');
    expect(phrases.get('back')).toContain('repai');
    // "long time" is a noun in WordNet ("years"): nouns are left out.
    const vague = 'It lasted a long time.';
    expect(phraseSynonyms(vague, analyze(vague).written).size).toBe(0);
  });

  it.each([
    // "straight away" for "immediately", "extension" for "ext.": v17 found neither.
    ['the phrase and the abbreviation', 'If you have already clicked, ring the IT Service Desk on extension 4000 straight away.', ['verified']],
    ['the wrong extension', 'If you have already clicked, ring the IT Service Desk on extension 4400 straight away.', ['contradicted']],
  ])('%s', async (_case, answer, verdicts) => {
    expect(await claimVerdicts(judge, 'What should I do with a phishing email?', phishing, answer)).toEqual(verdicts);
  });
});

describe('"no later than" is a bound, not a negation (heuristic-v18)', () => {
  it.each([
    ['the same deadline', 'Report it to the IT Service Desk no later than 1 hour after you notice.', ['verified']],
    // "an hour" is no figure, so its "no" was left as a negation of "hour notice": v17 called the
    // claim the opposite of the sentence (whose "no later than 1 hour" is a figure).
    ['the same deadline in words', 'Report it to the IT Service Desk no later than an hour after you notice.', ['verified']],
    ['a longer deadline', 'Report it to the IT Service Desk no later than 3 hours after you notice.', ['contradicted']],
  ])('%s', async (_case, answer, verdicts) => {
    expect(await claimVerdicts(judge, 'My laptop was stolen. How fast must I report it?', devices, answer)).toEqual(verdicts);
  });

  it('keeps a real negation', () => {
    const claim = analyze('You do not need to report it later than 1 hour.');
    expect(claim.segments.some((segment) => segment.negated.size > 0)).toBe(true);
    expect(analyze('Report it no later than 1 hour after you notice.').segments.every((segment) => segment.negated.size === 0)).toBe(true);
  });
});
