import { describe, expect, it } from 'vitest';
import { OUTDATED_NOTE } from '../contract/notes.js';
import { createHeuristicFaithfulnessJudge, judgeTrace } from '../judge/index.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { createRagPipeline } from './pipeline.js';

// The leave policy is dated 2026-01-12 in the fixture corpus.
const QUESTION = 'How many weeks of parental leave at full pay does a birth parent get?';

describe('outdated-document note', () => {
  it('appears when a cited document was updated more than 6 months before the injected clock, not when it is recent', async () => {
    const index = await handbookIndex();
    const late = createRagPipeline({ index, chat: createLocalChatModel(), now: () => new Date('2026-08-01T09:00:00Z') });
    const old = await late.ask(QUESTION);
    expect(old.answer).toContain('(Leave Policy, updated 2026-01-12)');
    expect(old.answer.endsWith(`\n\n${OUTDATED_NOTE}`)).toBe(true);
    expect(old.notes).toEqual([OUTDATED_NOTE]);

    const early = createRagPipeline({ index, chat: createLocalChatModel(), now: () => new Date('2026-07-11T09:00:00Z') });
    const recent = await early.ask(QUESTION);
    expect(recent.answer).not.toContain(OUTDATED_NOTE);
    expect(recent.notes).toBeUndefined();
  });

  it('threshold and wording are options; only cited documents count; refusals get no note; false turns it off', async () => {
    const index = await handbookIndex();
    const now = () => new Date('2026-03-01T00:00:00Z');
    const custom = createRagPipeline({ index, chat: createLocalChatModel(), now, outdatedNote: { maxAgeMonths: 1, text: 'Please check the intranet for the latest version.' } });
    expect((await custom.ask(QUESTION)).notes).toEqual(['Please check the intranet for the latest version.']);
    // An answer that cites nothing gets no note, whatever the chunks' dates.
    const uncited = createRagPipeline({ index, chat: new MockChatModel({ text: 'Twenty weeks.' }), now, outdatedNote: { maxAgeMonths: 0 } });
    expect((await uncited.ask(QUESTION)).answer).toBe('Twenty weeks.');
    const refusing = createRagPipeline({ index, chat: createLocalChatModel(), now, outdatedNote: { maxAgeMonths: 0 } });
    expect((await refusing.ask('Can I get paid in bitcoin?')).notes).toBeUndefined();
    const off = createRagPipeline({ index, chat: createLocalChatModel(), now: () => new Date('2030-01-01T00:00:00Z'), outdatedNote: false });
    expect((await off.ask(QUESTION)).notes).toBeUndefined();
    expect(() => createRagPipeline({ index, chat: createLocalChatModel(), outdatedNote: { maxAgeMonths: -1 } })).toThrow('outdatedNote.maxAgeMonths');
  });

  it('judges ignore the note: the same claims with and without it', async () => {
    const index = await handbookIndex();
    const withNote = await createRagPipeline({ index, chat: createLocalChatModel(), now: () => new Date('2027-01-01T00:00:00Z') }).ask(QUESTION);
    const without = await createRagPipeline({ index, chat: createLocalChatModel(), outdatedNote: false }).ask(QUESTION);
    expect(withNote.notes).toEqual([OUTDATED_NOTE]);
    const judge = createHeuristicFaithfulnessJudge();
    const [a, b] = await Promise.all([judgeTrace(judge, withNote), judgeTrace(judge, without)]);
    if (a.status !== 'ok' || b.status !== 'ok') throw new Error('the heuristic judge failed');
    expect(a.claims.length).toBeGreaterThan(0);
    expect(a.claims.map((claim) => [claim.text, claim.verdict])).toEqual(b.claims.map((claim) => [claim.text, claim.verdict]));
    expect(a.claims.some((claim) => claim.text.includes('outdated'))).toBe(false);
  });
});
