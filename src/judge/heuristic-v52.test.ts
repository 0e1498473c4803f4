import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { isSocialRemark } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v52: clock units convert; reassurance alone is no claim (METHODOLOGY.md, "Changes in v52").
const judge = createHeuristicFaithfulnessJudge();
const breach: EvidencePassage[] = [
  chunkPassage('data-protection#reporting-a-data-breach', { title: 'Data Protection', section: 'Reporting a Data Breach', updated: '2025-03-01' }, 'Report any suspected breach to the Privacy team within 1 hour of discovering it, using privacy@harbourline.co.uk.'),
];
const question = 'How quickly do I have to report a data breach to the Privacy team?';

describe('clock units convert (heuristic-v52)', () => {
  it('"within 60 minutes" is "within 1 hour"', async () => {
    // v51: absent ("within 60 minutes is not stated"): minutes and hours were incomparable.
    expect(await claimVerdicts(judge, question, breach, 'Report it to the Privacy team within 60 minutes.')).toEqual(['verified']);
  });

  it('"within 90 minutes" is not', async () => {
    expect(await claimVerdicts(judge, question, breach, 'Report it to the Privacy team within 90 minutes.')).toEqual(['contradicted']);
  });
});

describe('reassurance (heuristic-v52)', () => {
  it('only a clause that is nothing but reassurance is dropped', () => {
    expect(isSocialRemark("Don't panic!")).toBe(true);
    expect(isSocialRemark('No need to worry.')).toBe(true);
    expect(isSocialRemark("Don't worry, you won't be sacked.")).toBe(false);
  });
});
