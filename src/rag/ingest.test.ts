import { readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import type { EmbedOptions, EmbeddingModel } from '../providers/spec.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { copyCorpus, onCleanup, tempDir } from '../test-support/fixtures.js';
import { formatIngestSummary, ingestDirectory } from './ingest.js';
import { createRagPipeline } from './pipeline.js';
import { openIndex, type VectorIndexKind } from './store.js';

/** The offline embedder, recording every text it is asked to embed. */
function recordingEmbedder(): EmbeddingModel & { texts: string[] } {
  const inner = createLocalEmbedder();
  const texts: string[] = [];
  return {
    provider: inner.provider, modelId: inner.modelId, dimensions: inner.dimensions, fingerprint: inner.fingerprint, texts,
    embed(options: EmbedOptions) {
      texts.push(...options.values);
      return inner.embed(options);
    },
  };
}

function freshIndex() {
  const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createLocalEmbedder() });
  onCleanup(() => index.close());
  return index;
}

describe('ingestDirectory', () => {
  it('is incremental: skips unchanged files, replaces changed ones, removes deleted ones, and says so', async () => {
    const corpus = copyCorpus();
    const index = freshIndex();
    const first = await ingestDirectory(index, corpus);
    expect(first.added.length).toBe(21);
    expect(first.skipped).toEqual([]);
    const totalChunks = first.chunks;

    const second = await ingestDirectory(index, corpus);
    expect({ added: second.added, replaced: second.replaced, removed: second.removed, skipped: second.skipped.length }).toEqual({
      added: [], replaced: [], removed: [], skipped: 21,
    });
    expect(second.chunks).toBe(totalChunks);

    expect(index.getChunk('whistleblowing#how-to-raise-a-concern')).toBeDefined();
    const leave = join(corpus, 'leave-policy.md');
    writeFileSync(leave, readFileSync(leave, 'utf8').replace('annual leave each year', 'annual leave every year'));
    rmSync(join(corpus, 'whistleblowing.md'));
    writeFileSync(join(corpus, 'canteen.md'), '---\ntitle: Canteen\nupdated: 2026-03-01\n---\n## Opening Hours\n\nThe canteen opens at 8am.\n');
    const third = await ingestDirectory(index, corpus);
    expect({ added: third.added, replaced: third.replaced, removed: third.removed, skipped: third.skipped.length }).toEqual({
      added: ['canteen.md'], replaced: ['leave-policy.md'], removed: ['whistleblowing.md'], skipped: 19,
    });
    expect(formatIngestSummary(third)).toMatch(/1 added, 1 replaced, 19 unchanged \(skipped\), 1 removed/);
    expect(index.getChunk('whistleblowing#how-to-raise-a-concern')).toBeUndefined();
    expect(index.getChunk('canteen#opening-hours')?.text).toBe('The canteen opens at 8am.');
  });

  it('makes an old figure disappear from answers after the document changes', async () => {
    const corpus = copyCorpus();
    const index = freshIndex();
    await ingestDirectory(index, corpus);
    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    const question = 'How many weeks of parental leave at full pay does a birth parent get?';

    const before = await pipeline.ask(question);
    expect(before.answer).toContain('20 weeks');

    const leave = join(corpus, 'leave-policy.md');
    writeFileSync(leave, readFileSync(leave, 'utf8').replaceAll('20 weeks of parental leave', '24 weeks of parental leave'));
    const summary = await ingestDirectory(index, corpus);
    expect(summary.replaced).toEqual(['leave-policy.md']);

    const after = await pipeline.ask(question);
    expect(after.answer).toContain('24 weeks');
    expect(after.answer).not.toContain('20 weeks');
    const parental = after.chunks.find((chunk) => chunk.chunkId === 'leave-policy#parental-leave');
    expect(parental?.text).toContain('24 weeks of parental leave');
    expect(parental?.hash).not.toBe(before.chunks.find((chunk) => chunk.chunkId === 'leave-policy#parental-leave')?.hash);
  });

  it('fails clearly on a missing folder, a file instead of a folder, and a folder with no documents', async () => {
    const index = freshIndex();
    const dir = tempDir();
    await expect(ingestDirectory(index, join(dir, 'nope'))).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/does not exist/) });
    writeFileSync(join(dir, 'file.md'), '# x');
    await expect(ingestDirectory(index, join(dir, 'file.md'))).rejects.toMatchObject({ code: 'not_a_folder' });
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'image.png'), 'not text');
    await expect(ingestDirectory(index, join(dir, 'empty'))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ingestDirectory(index, join(dir, 'empty'))).rejects.toMatchObject({ code: 'empty_corpus', message: expect.stringContaining('(it holds 1 other file (image.png))') });
  });

  it('reads HTML files through the page extractor, and lists the files it cannot read instead of dropping them silently', async () => {
    const index = freshIndex();
    const dir = tempDir();
    writeFileSync(join(dir, 'returns.md'), '# Returns\n\nYou can return most items within 30 days of delivery.\n');
    writeFileSync(
      join(dir, 'faq.html'),
      '<!doctype html><html><head><title>Shop FAQ</title><meta property="article:modified_time" content="2025-06-02T10:00:00Z"></head><body>' +
        '<nav>Home | Shop | Help</nav><main><h1>FAQ</h1><h2>Gift cards</h2><p>Gift cards are valid for 24 months and can be used online only.</p>' +
        '<h2>Price match</h2><p>We do not offer price matching.</p></main><footer>© Shop Ltd</footer><script>track()</script></body></html>',
    );
    writeFileSync(join(dir, 'manual.pdf'), '%PDF-1.4 not text');
    const summary = await ingestDirectory(index, dir);
    expect(summary.added).toEqual(['faq.html', 'returns.md']);
    expect(summary.unsupported).toEqual(['manual.pdf']);
    expect(formatIngestSummary(summary)).toContain('  ignored   manual.pdf (not .md, .markdown, .mdx, .txt or .html)');
    const faq = index.listDocuments().find((document) => document.path === 'faq.html')!;
    expect({ slug: faq.slug, title: faq.title, updated: faq.updated }).toEqual({ slug: 'faq', title: 'FAQ', updated: '2025-06-02' });
    const giftCards = index.getChunk('faq#gift-cards')!;
    expect(giftCards.text).toContain('Gift cards are valid for 24 months');
    // The page's chrome is not the document's text.
    const everything = [...index.chunkHashes().keys()].map((id) => index.getChunk(id)!.text).join('\n');
    for (const chrome of ['Home | Shop', '© Shop Ltd', 'track()']) expect(everything).not.toContain(chrome);
    // Unchanged, it is skipped like any other file.
    expect((await ingestDirectory(index, dir)).skipped).toEqual(['faq.html', 'returns.md']);
    // A folder of images is counted past the first ten, not listed line by line.
    for (let n = 1; n <= 12; n++) writeFileSync(join(dir, `image-${String(n).padStart(2, '0')}.png`), 'png');
    const printed = formatIngestSummary(await ingestDirectory(index, dir));
    expect(printed.split('\n').filter((line) => line.startsWith('  ignored'))).toHaveLength(11);
    expect(printed).toContain('  ignored   … and 3 more');
  });

  it.each<VectorIndexKind>(['float', 'binary-rescore'])(
    're-embeds only the chunks whose text changed, and the reused vectors are the ones a full re-ingest makes (%s)',
    async (vectorIndex) => {
      const corpus = copyCorpus();
      const embedder = recordingEmbedder();
      const index = openIndex({ path: join(tempDir(), 'index.db'), embedder, vectorIndex });
      onCleanup(() => index.close());
      const first = await ingestDirectory(index, corpus);
      expect(first.chunksEmbedded).toBe(first.chunksWritten);
      const leaveChunks = index.listDocuments().find((document) => document.path === 'leave-policy.md')!.chunkCount;
      expect(leaveChunks).toBeGreaterThan(5);

      embedder.texts.length = 0;
      const leave = join(corpus, 'leave-policy.md');
      writeFileSync(leave, readFileSync(leave, 'utf8').replace('You must keep 3 days of your annual leave', 'You must keep 4 days of your annual leave'));
      const second = await ingestDirectory(index, corpus);
      expect(second.replaced).toEqual(['leave-policy.md']);
      expect(embedder.texts).toHaveLength(1);
      expect(embedder.texts[0]).toContain('You must keep 4 days of your annual leave');
      expect({ written: second.chunksWritten, embedded: second.chunksEmbedded }).toEqual({ written: leaveChunks, embedded: 1 });
      expect(formatIngestSummary(second)).toContain(`${leaveChunks} chunks written (1 embedded, ${leaveChunks - 1} reused unchanged)`);

      const fresh = openIndex({ path: join(tempDir(), 'fresh.db'), embedder: createLocalEmbedder(), vectorIndex });
      onCleanup(() => fresh.close());
      await ingestDirectory(fresh, corpus);
      const incremental = index.vectorsByChunkHash(['leave-policy.md']);
      const rebuilt = fresh.vectorsByChunkHash(['leave-policy.md']);
      expect(incremental.size).toBe(leaveChunks);
      expect(new Map([...incremental].map(([hash, vector]) => [hash, Array.from(vector)]))).toEqual(
        new Map([...rebuilt].map(([hash, vector]) => [hash, Array.from(vector)])),
      );
    },
  );

  it('embeds nothing when a document is only renamed: its chunks keep their vectors', async () => {
    const corpus = copyCorpus();
    const embedder = recordingEmbedder();
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder });
    onCleanup(() => index.close());
    await ingestDirectory(index, corpus);
    embedder.texts.length = 0;
    renameSync(join(corpus, 'whistleblowing.md'), join(corpus, 'speaking-up.md'));
    const summary = await ingestDirectory(index, corpus);
    expect({ added: summary.added, removed: summary.removed, embedded: summary.chunksEmbedded }).toEqual({
      added: ['speaking-up.md'], removed: ['whistleblowing.md'], embedded: 0,
    });
    expect(summary.chunksWritten).toBeGreaterThan(0);
    expect(embedder.texts).toEqual([]);
  });
});

describe('an index re-ingested in place scores exactly like one built fresh', () => {
  it('BM25 statistics follow deletes: the same text search, similarities and fused scores after edits, removals and re-adds', async () => {
    const corpus = copyCorpus();
    const inPlace = openIndex({ path: join(tempDir(), 'in-place.db'), embedder: createLocalEmbedder() });
    onCleanup(() => inPlace.close());
    await ingestDirectory(inPlace, corpus);
    // Edit one document twice, remove another and bring it back: rows are deleted and re-added.
    const leave = join(corpus, 'leave-policy.md');
    const original = readFileSync(leave, 'utf8');
    writeFileSync(leave, `${original}\n\n## Sabbaticals\n\nAfter 7 years you may take a 4-week unpaid sabbatical.\n`);
    await ingestDirectory(inPlace, corpus);
    writeFileSync(leave, `${original}\n\n## Sabbaticals\n\nAfter 5 years you may take a 6-week unpaid sabbatical.\n`);
    await ingestDirectory(inPlace, corpus);
    const gifts = readFileSync(join(corpus, 'gifts-and-hospitality.md'), 'utf8');
    rmSync(join(corpus, 'gifts-and-hospitality.md'));
    await ingestDirectory(inPlace, corpus);
    writeFileSync(join(corpus, 'gifts-and-hospitality.md'), gifts);
    await ingestDirectory(inPlace, corpus);

    const fresh = openIndex({ path: join(tempDir(), 'fresh.db'), embedder: createLocalEmbedder() });
    onCleanup(() => fresh.close());
    await ingestDirectory(fresh, corpus);

    // FTS5 keeps the row count BM25 normalises by in its `averages` record (first varint).
    const rowsInStatistics = (index: typeof fresh) => (index.db.prepare(`SELECT block FROM chunks_fts_data WHERE id = 1`).get() as { block: Buffer }).block;
    expect(rowsInStatistics(inPlace)).toEqual(rowsInStatistics(fresh));

    const { retrieve } = await import('./retrieve.js');
    for (const question of ['How many weeks of parental leave does a birth parent get?', 'Can I accept a gift from a supplier?', 'How long can a sabbatical be?', 'What is the mileage rate?']) {
      const a = await retrieve(inPlace, question, { topK: 8, minSimilarity: -1 });
      const b = await retrieve(fresh, question, { topK: 8, minSimilarity: -1 });
      expect(a.chunks.map(({ chunkId, score, fusedScore, textRank }) => ({ chunkId, score, fusedScore, textRank })), question).toEqual(
        b.chunks.map(({ chunkId, score, fusedScore, textRank }) => ({ chunkId, score, fusedScore, textRank })),
      );
    }
  });
});
