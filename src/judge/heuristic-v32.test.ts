import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v32: the last action of a list is a claim of its own (METHODOLOGY.md, "Changes in v32").
const judge = createHeuristicFaithfulnessJudge();

const phishing: EvidencePassage[] = [
  {
    id: 'it-and-security#phishing-and-suspicious-emails',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Phishing and Suspicious Emails | Last updated: 2025-05-01]\nIf you have already clicked a link, opened an attachment or entered your password, call the IT Service Desk on ext. 4000 immediately and change your password.',
  },
];

describe('a list of actions ending in ", and <verb> <object>" (heuristic-v32)', () => {
  it.each([
    ['Call the Service Desk on ext. 4000 immediately, change your password, and switch your laptop off until IT collects it.', ['Call the Service Desk on ext. 4000 immediately, change your password', 'switch your laptop off until IT collects it.']],
    ['Fill in the form, and send it to HR.', ['Fill in the form', 'send it to HR.']],
    // Lists of things stay as they were (a clause with its own subject is split since v35: heuristic-v35.test.ts).
    ['You can claim train, taxi, and hotel costs.', ['You can claim train, taxi, and hotel costs.']],
  ])('%s', (answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('an invented last step is its own claim, and absent', async () => {
    expect(await claimVerdicts(judge, 'I clicked a link in a phishing email by mistake. What now?', phishing, 'Call the Service Desk on ext. 4000 immediately, change your password, and switch your laptop off until IT collects it.')).toEqual(['verified', 'absent']);
  });
});
