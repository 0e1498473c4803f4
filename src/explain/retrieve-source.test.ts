import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { openIndex } from '../rag/store.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { valueSources } from './called-names.js';
import { retrieveSource } from './retrieve-source.js';
import { indexSource } from './source-index.js';

describe('where a bad value came from', () => {
  it('valueSources: what the failing line calls, then what assigned its names above it, within its own function', () => {
    const lines = [
      'export function listAll(req, res) {',
      '  const post = findPost(1);',
      '}',
      'export function showPost(req, res) {',
      '  const post = findPost(Number(req.params.id));',
      '  const author = loadAuthor(post);',
      '  const unrelated = countViews();',
      '  res.json({ title: post.title.toUpperCase(), author: author.name });',
    ];
    // The failing line's own calls first; `countViews` assigns nothing the line uses; nothing above `showPost`'s head counts.
    expect(valueSources(lines, 7)).toEqual(['toUpperCase', 'loadAuthor', 'findPost']);
    expect(valueSources(['  return formatDat(post.publishedAt);'], 0)).toEqual(['formatDat']);
  });

  it('retrieveSource brings the excerpts defining the named functions right after the best one, past the per-file cap', async () => {
    // One small app file holds both the failing handler and the lookup it calls (as in many small
    // apps); another file names the error's property more often.
    const root = tempDir();
    writeFileSync(join(root, 'app.js'), [
      'export function findPost(id) {',
      '  const posts = { 1: { title: "Hello" } };',
      '  return posts[id];',
      '}',
      'export function showPost(req, res) {',
      '  const post = findPost(req.params.id);',
      '  res.json({ title: post.title.toUpperCase() });',
      '}',
    ].join('\n'));
    writeFileSync(join(root, 'titles.js'), [
      'export function titles(req, res) {',
      '  res.json(req.items.map((item) => ({ title: item.title, subtitle: item.title })));',
      '}',
    ].join('\n'));
    const index = openIndex({ path: join(tempDir(), 'source.db'), embedder: createLocalEmbedder() });
    onCleanup(() => index.close());
    await indexSource(index, root);
    const query = "TypeError: Cannot read properties of undefined (reading 'title')\n    at showPost (app.js:7:27)\n  res.json({ title: post.title.toUpperCase() });";
    const ids = async (definitions?: string[]) => (await retrieveSource(index, query, { topK: 3, maxChunksPerFile: 1, ...(definitions ? { definitions } : {}) })).chunks.map((chunk) => chunk.chunkId);
    // Without the name, the one-per-file cap keeps the lookup out: the model never sees where `post` came from.
    expect(await ids()).toEqual(['app.js#showPost', 'titles.js#titles']);
    // Named (as valueSources names it), it comes second; a name no excerpt defines is ignored.
    expect(await ids(['toUpperCase', 'findPost'])).toEqual(['app.js#showPost', 'app.js#findPost', 'titles.js#titles']);
  });
});
