import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from '../judge/heuristic-judge.js';
import type { EvidencePassage } from '../judge/types.js';
import { createRedactor } from './redact.js';

/**
 * Redaction must not change what a judge can tell: the evidence and the answer are redacted with
 * one key, so a right address still matches and a wrong one still disagrees.
 */
const BREACH =
  '[Source: Data Protection | Section: Reporting a Data Breach | Last updated: 2025-11-03]\nReport any suspected breach to the Privacy team within 1 hour of discovering it, using privacy@harbourline.co.uk. Outside office hours, call the IT Service Desk security line on 020 7946 0400.';
const QUESTION = 'How do I report a suspected data breach?';
const redactor = createRedactor({ key: 'judging-test-key-0123456789' });
const judge = createHeuristicFaithfulnessJudge();

async function verdictsAfterRedaction(answer: string) {
  const evidence: EvidencePassage[] = [{ id: 'data-protection#reporting-a-data-breach', text: redactor.redactText(BREACH), kind: 'chunk' }];
  expect(evidence[0]!.text).not.toContain('privacy@');
  const judgment = await judge.judge({ question: QUESTION, evidence, answer: redactor.redactText(answer) });
  if (judgment.status !== 'ok') throw new Error(judgment.error);
  return judgment.claims.map((claim) => [claim.verdict, claim.note]);
}

describe('judging redacted captures', () => {
  it('a wrong e-mail address is still contradicted after placeholder redaction', async () => {
    const judged = await verdictsAfterRedaction('Report it to the Privacy team within 1 hour, using privacy@harbourline.com.');
    expect(judged.map(([verdict]) => verdict)).toEqual(['contradicted']);
    expect(judged[0]![1]).toMatch(/gives \[email:[0-9a-f]{8}\], not \[email:[0-9a-f]{8}\]/);
  });

  it('the right address is still verified', async () => {
    expect((await verdictsAfterRedaction('Report it to the Privacy team within 1 hour, using privacy@harbourline.co.uk.')).map(([verdict]) => verdict)).toEqual(['verified']);
  });

  it('a wrong phone number is contradicted, the right one verified', async () => {
    expect((await verdictsAfterRedaction('Outside office hours, call the IT Service Desk security line on 020 7946 0999.')).map(([verdict]) => verdict)).toEqual(['contradicted']);
    expect((await verdictsAfterRedaction('Outside office hours, call the IT Service Desk security line on 020 7946 0400.')).map(([verdict]) => verdict)).toEqual(['verified']);
  });

  it('without redaction the judge sees the same: a wrong address is contradicted', async () => {
    const evidence: EvidencePassage[] = [{ id: 'd', text: BREACH, kind: 'chunk' }];
    const judgment = await judge.judge({ question: QUESTION, evidence, answer: 'Report it to the Privacy team within 1 hour, using privacy@harbourline.com.' });
    expect(judgment.status === 'ok' && judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });
});
