import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { copyCorpus, tempDir } from '../test-support/fixtures.js';
import type { IngestSummary } from './ingest.js';
import { retrieve } from './retrieve.js';
import { openIndex } from './store.js';
import { watchDirectory } from './watch.js';

/** Resolve with the first change that satisfies `test`, or reject after `ms`. */
function nextChange(changes: IngestSummary[], test: (summary: IngestSummary) => boolean, ms: number): Promise<IngestSummary> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const found = changes.find(test);
      if (found) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error(`no matching change within ${ms} ms; saw ${JSON.stringify(changes.map((change) => [change.added, change.replaced, change.removed]))}`));
      }
    }, 20);
  });
}

describe('watchDirectory', () => {
  it('picks up an edit, a new file and a deletion in a real folder within a second or two, through the incremental path', async () => {
    const folder = copyCorpus();
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createLocalEmbedder() });
    const changes: IngestSummary[] = [];
    const watcher = watchDirectory(index, folder, { debounceMs: 100, onChange: (summary) => changes.push(summary) });
    try {
      const first = await watcher.ready;
      expect(first.added).toHaveLength(21);
      expect((await retrieve(index, 'How many duvet days do I get?', { topK: 3 })).chunks.map((chunk) => chunk.chunkId)).not.toContain('leave-policy#duvet-days');

      appendFileSync(join(folder, 'leave-policy.md'), '\n## Duvet Days\n\nEvery employee may take 2 duvet days a year without notice.\n');
      const edited = await nextChange(changes, (summary) => summary.replaced.includes('leave-policy.md'), 2000);
      // Incremental: only the edited file is re-chunked.
      expect(edited).toMatchObject({ added: [], replaced: ['leave-policy.md'], removed: [] });
      expect(edited.skipped).toHaveLength(20);
      expect((await retrieve(index, 'How many duvet days do I get?', { topK: 3 })).chunks[0]?.chunkId).toBe('leave-policy#duvet-days');

      writeFileSync(join(folder, 'parking.md'), '---\ntitle: Parking\nupdated: 2026-03-01\n---\n# Parking\n\nStaff may park in the Bristol car park.\n');
      await nextChange(changes, (summary) => summary.added.includes('parking.md'), 2000);
      rmSync(join(folder, 'parking.md'));
      await nextChange(changes, (summary) => summary.removed.includes('parking.md'), 2000);
      await watcher.whenIdle();
      expect(index.listDocuments().map((document) => document.path)).not.toContain('parking.md');
    } finally {
      await watcher.close();
      index.close();
    }
  });

  it('rejects a bad debounce and reports a missing folder through ready', async () => {
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createLocalEmbedder() });
    try {
      expect(() => watchDirectory(index, tempDir(), { debounceMs: -1 })).toThrow('option debounceMs -1 is invalid');
      const watcher = watchDirectory(index, join(tempDir(), 'missing'));
      await expect(watcher.ready).rejects.toMatchObject({ code: 'not_found' });
      await watcher.close();
    } finally {
      index.close();
    }
  });
});
