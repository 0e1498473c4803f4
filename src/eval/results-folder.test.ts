import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JudgeInfo } from '../contract/judgment.js';
import { outcomeNames } from '../contract/outcome.js';
import type { FaithfulnessJudgment } from '../judge/types.js';
import { tempDir } from '../test-support/fixtures.js';
import { judgmentFrom } from '../test-support/judgments.js';
import { openResultsFolder } from './results-folder.js';
import { RESULTS_FORMAT_VERSION } from './types.js';

const heuristic: JudgeInfo = { kind: 'heuristic', model: 'heuristic', promptVersion: 'heuristic-v4' };
const llm: JudgeInfo = { kind: 'llm', model: 'openai:gpt-4o-mini', promptVersion: 'faithfulness-v3' };
const correct = judgmentFrom('Cars: 45p per mile.', [{ text: 'Cars: 45p per mile.', verdict: 'verified', evidenceChunkId: 'x', note: '' }])!;
const hallucinated = judgmentFrom('Cars: 90p per mile.', [{ text: 'Cars: 90p per mile.', verdict: 'contradicted', evidenceChunkId: 'x', note: '' }])!;
const failed: FaithfulnessJudgment = { status: 'error', judge: heuristic, error: 'unusable reply', rawReply: null, attempts: 3, authError: false, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: null, durationMs: 0 };

/** The parts of a results file the folder reads; `null` is a question that did not run. */
function results(startedAt: string, judge: JudgeInfo, runs: (FaithfulnessJudgment | null)[][], suite = 'handbook') {
  return {
    format: RESULTS_FORMAT_VERSION,
    suite: { name: suite },
    startedAt,
    versions: { faithfulnessJudge: judge },
    runs: runs.map((judgments) => ({ questions: judgments.map((judgment) => ({ rag: judgment === null ? null : { judgment } })) })),
  };
}

function write(dir: string, name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('a folder of eval results', () => {
  it('gives the newest run of each judge version, its RAG-on outcomes recounted over every run; other files are skipped with the reason', async () => {
    const dir = tempDir();
    const older = write(dir, 'handbook-1.json', results('2026-03-01T09:00:00.000Z', heuristic, [[correct]]));
    const newer = write(dir, 'smoke-2.json', results('2026-03-02T09:00:00.000Z', heuristic, [[correct, hallucinated, null, failed], [correct, correct, null, hallucinated]], 'smoke'));
    const otherJudge = write(dir, 'handbook-3.json', results('2026-03-03T09:00:00.000Z', llm, [[hallucinated]]));
    const junk = write(dir, 'notes.json', '{"note": true}');
    const broken = write(dir, 'broken.json', '{"format": 3, "runs": [');
    const oldFormat = write(dir, 'handbook-0.json', { ...results('2026-01-01T00:00:00.000Z', heuristic, [[correct]]), format: 2 });
    write(dir, 'handbook-2.md', '# not json');
    const folderNamedJson = join(dir, 'nested.json');
    mkdirSync(folderNamedJson);

    const folder = openResultsFolder(dir);
    const zeros = Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0]));
    expect(await folder.latestFor('heuristic:heuristic:heuristic-v4')).toEqual({
      file: newer,
      suite: 'smoke',
      startedAt: '2026-03-02T09:00:00.000Z',
      judge: heuristic,
      judgeVersion: 'heuristic:heuristic:heuristic-v4',
      runs: 2,
      judged: 6,
      outcomes: { ...zeros, correct: 3, hallucinated: 2, judge_error: 1 },
    });
    expect((await folder.latestFor('llm:openai:gpt-4o-mini:faithfulness-v3'))!.file).toBe(otherJudge);
    expect(await folder.latestFor('llm:openai:gpt-4o:faithfulness-v3')).toBeNull();
    const { runs, skipped } = await folder.scan();
    expect(runs.map((run) => run.file)).toEqual([otherJudge, newer, older]);
    expect(skipped.map((entry) => entry.file).sort()).toEqual([broken, junk, folderNamedJson, oldFormat].sort());
    expect(skipped.find((entry) => entry.file === oldFormat)!.reason).toMatch(/has results format 2; this groundcheck reads format 3/);
    expect(skipped.find((entry) => entry.file === junk)!.reason).toMatch(/is not a groundcheck eval results file/);
  });

  it('a file changed since it was read is read again; a removed one is forgotten; a missing folder has none', async () => {
    const dir = tempDir();
    const file = write(dir, 'handbook-1.json', results('2026-03-01T09:00:00.000Z', heuristic, [[correct]]));
    const folder = openResultsFolder(dir);
    expect((await folder.latestFor('heuristic:heuristic:heuristic-v4'))!.outcomes.correct).toBe(1);
    write(dir, 'handbook-1.json', results('2026-03-01T09:00:00.000Z', heuristic, [[hallucinated, hallucinated]]));
    utimesSync(file, new Date('2026-03-05T00:00:00Z'), new Date('2026-03-05T00:00:00Z'));
    expect((await folder.latestFor('heuristic:heuristic:heuristic-v4'))!.outcomes).toMatchObject({ correct: 0, hallucinated: 2 });
    rmSync(file);
    expect(await folder.scan()).toEqual({ runs: [], skipped: [] });
    expect(await openResultsFolder(join(dir, 'missing')).scan()).toEqual({ runs: [], skipped: [] });
  });
});
