import { describe, expect, it } from 'vitest';
import { composeAnswer } from './compose.js';
import { sourcesFromPrompt } from './prompt-sources.js';

// The offline answerer's composition (local-extractive-v35).
describe('composeAnswer', () => {
  const [source] = sourcesFromPrompt([
    {
      id: 'onboarding#training',
      text: '[Source: Onboarding | Section: Mandatory Training | Last updated: 2025-03-10]\nComplete these modules within your first 30 days:\n- Information Security Essentials\n- Health and Safety Induction\nAccess to customer systems is not granted until both are complete.',
    },
  ]);
  const units = source!.units;

  it('puts each list item on a line of its own, and the sentence after a list on a new line', () => {
    const answer = composeAnswer(units, { wordCap: 150, cite: false });
    expect(answer.split('\n')).toEqual([
      'Complete these modules within your first 30 days:',
      '- Information Security Essentials',
      '- Health and Safety Induction',
      'Access to customer systems is not granted until both are complete.',
    ]);
    // Before v35 the last item read "…Induction Access to customer systems…".
    expect(answer).not.toMatch(/Induction Access/);
  });

  it('joins sentences that follow a sentence with a space', () => {
    const [plain] = sourcesFromPrompt([{ id: 'pay#day', text: '[Source: Pay | Section: Pay Day | Last updated: 2025-04-01]\nYou are paid on the 25th. In December you are paid on the 19th.' }]);
    expect(composeAnswer(plain!.units, { wordCap: 150, cite: false })).toBe('You are paid on the 25th. In December you are paid on the 19th.');
  });
});
