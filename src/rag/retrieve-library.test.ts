import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from '../judge/heuristic-judge.js';
import { judgeTrace } from '../judge/faithfulness-trace.js';
import { outcomeOf, flagsOf } from '../contract/outcome.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { checkTermCoverage } from './term-coverage.js';
import type { GroundcheckIndex } from './store.js';

// Found on an eleventh corpus written before the pipeline ran on it (fixtures/library; METHODOLOGY.md changelog, 2026-12-05).
const libraryIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('library'));

describe('the library corpus (local-extractive-v19 and later)', () => {
  it('"scanners" is a form of "scan": the scanning rule answers "does it cost anything to scan"', async () => {
    // v18: the lost-items rule ("we charge its replacement cost"), on "cost" alone.
    const trace = await createRagPipeline({ index: await libraryIndex(), chat: createLocalChatModel() }).ask('does it cost anything to scan');
    expect(trace.answer).toContain('The scanners are free to use.');
  });

  it('"ebooks" is read as the documents write it, "e-books": found, answered and judged correct', async () => {
    // v18: refused by the term-coverage gate ("ebooks" is in no chunk).
    const trace = await createRagPipeline({ index: await libraryIndex(), chat: createLocalChatModel() }).ask('how many ebooks can i borrow');
    expect(trace.refused).toBe(false);
    expect(trace.answer).toContain('up to 5 e-books');
    const judgment = await judgeTrace(createHeuristicFaithfulnessJudge(), trace);
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });

  it('a "fine" is what the documents call a late charge: found, not refused by the gate (local-extractive-v22)', async () => {
    // v21: refused by the term-coverage gate: "fine" is in no chunk (they say "charged", "late charges").
    const index = await libraryIndex();
    expect((await checkTermCoverage(index, 'how much is the fine if my book is late')).uncoveredTerms).toEqual([]);
    const trace = await createRagPipeline({ index, chat: createLocalChatModel() }).ask('how much is the fine if my book is late');
    expect(trace.answer).toContain('charged 25p per day');
    // "fine" that asks whether something is allowed names no topic, and is not looked up at all.
    expect((await checkTermCoverage(index, 'is it fine to bring a coffee in')).uncoveredTerms).toEqual(['coffee']);
  });
});
