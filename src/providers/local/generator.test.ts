import { describe, expect, it } from 'vitest';
import { answererChunk as chunk } from '../../test-support/answerer.js';
import { buildMessages } from '../../rag/prompt.js';
import { evidenceFromChunks } from '../../contract/evidence.js';
import { REFUSAL_SENTENCE } from '../../contract/refusal.js';
import { createHeuristicFaithfulnessJudge } from '../../judge/heuristic-judge.js';
import type { RetrievedChunk } from '../../contract/trace.js';
import { createLocalChatModel } from './generator.js';
import { splitSentences } from '../../text/text.js';

const PARENTAL = chunk('leave-policy#parental-leave', 'Leave Policy', 'Parental Leave',
  'From 1 January 2026, a birth parent is entitled to 20 weeks of parental leave at full pay. This replaces the previous entitlement of 16 weeks.\n\nTell the People team by the 15th week before the birth.');
const MILEAGE = chunk('travel#mileage-rates', 'Travel and Expenses', 'Mileage Rates',
  'Claim mileage at these rates:\n\n| Vehicle | Rate per mile |\n| --- | --- |\n| Car | 45p |\n| Bicycle | 20p |');
const CANTEEN = chunk('canteen#hours', 'Canteen', 'Opening Hours', 'The canteen opens at 8am and closes at 3pm.');

async function answer(question: string, chunks: RetrievedChunk[], mode: 'rag' | 'norag' = 'rag', wordCap?: number) {
  const result = await createLocalChatModel().generate({ messages: buildMessages(question, chunks, mode, wordCap ? { wordCap } : {}) });
  return result.text;
}

describe('local extractive chat model', () => {
  it('answers only with sentences taken from the documents, cited by title and date', async () => {
    const text = await answer('How many weeks of parental leave does a birth parent get?', [CANTEEN, PARENTAL]);
    expect(text).toContain('20 weeks of parental leave at full pay');
    expect(text).toContain('(Leave Policy, updated 2026-01-12)');
    expect(text).not.toContain('canteen');
    // Every sentence (minus the citation) appears verbatim in a document.
    const body = text.replace(/ \([^()]*, updated [^()]*\)/g, '');
    for (const sentence of splitSentences(body)) expect(PARENTAL.text).toContain(sentence.replace(/\.$/, ''));
  });

  it('reads table rows with their header', async () => {
    const text = await answer('What is the mileage rate per mile for a bicycle?', [MILEAGE]);
    expect(text).toContain('Vehicle: Bicycle; Rate per mile: 20p');
  });

  it('refuses with the exact sentence when the documents do not cover the question', async () => {
    expect(await answer('Is my salary paid in cryptocurrency?', [CANTEEN, MILEAGE])).toBe(REFUSAL_SENTENCE);
  });

  it('has no knowledge of its own: norag mode refuses', async () => {
    expect(await answer('How many weeks of parental leave does a birth parent get?', [], 'norag')).toBe(REFUSAL_SENTENCE);
  });

  it('keeps to the word cap in the system prompt', async () => {
    const long = chunk('a#b', 'Long', 'Leave Rules', Array.from({ length: 12 }, (_, i) => `Leave rule ${i} says leave needs ${'careful '.repeat(10)}planning.`).join(' '));
    const text = await answer('What do the leave rules say about leave planning?', [long], 'rag', 40);
    expect(text.split(/\s+/).length).toBeLessThanOrEqual(40);
  });

  it('answers with the refusal sentence the prompt names', async () => {
    const messages = buildMessages('Is my salary paid in cryptocurrency?', [CANTEEN], 'rag', { refusalSentence: 'Not in the handbook.' });
    expect((await createLocalChatModel().generate({ messages })).text).toBe('Not in the handbook.');
  });

  it('cites a title with parentheses so that its own citation is not a claim', async () => {
    const cycle = chunk('benefits#cycle', 'Cycle Scheme (UK)', 'Joining', 'You can join the cycle to work scheme once a year, in April.');
    const text = await answer('When can I join the cycle to work scheme?', [cycle]);
    expect(text).toBe('You can join the cycle to work scheme once a year, in April. (Cycle Scheme (UK), updated 2026-01-12)');
    const judgment = await createHeuristicFaithfulnessJudge().judge({ question: 'When can I join the cycle to work scheme?', evidence: evidenceFromChunks([cycle]), answer: text });
    expect(judgment).toMatchObject({ status: 'ok', faithful: true, counts: { verified: 1, contradicted: 0, absent: 0 } });
  });

  it('is deterministic', async () => {
    const first = await answer('What is the mileage rate for a car?', [MILEAGE, PARENTAL]);
    const second = await answer('What is the mileage rate for a car?', [MILEAGE, PARENTAL]);
    expect(first).toBe(second);
  });
});
