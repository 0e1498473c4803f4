import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import type { EmbeddingModel } from '../providers/spec.js';
import { ingestDirectory } from '../rag/ingest.js';
import { openIndex, type GroundcheckIndex } from '../rag/store.js';
import type { EvidencePassage } from '../judge/types.js';

export const CORPUS_DIR = fileURLToPath(new URL('../../fixtures/corpus', import.meta.url));
export const QUESTIONS_DIR = fileURLToPath(new URL('../../fixtures/questions', import.meta.url));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  // In reverse order, each awaited: a store's close() settles its threads before its folder goes.
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A fresh temp folder, removed after the test. */
export function tempDir(prefix = 'groundcheck-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a store closed without awaiting may still finish writing its -wal/-shm files while
  // the folder goes (ENOTEMPTY, seen once in a loaded full run).
  cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  return dir;
}

/** A writable copy of the handbook corpus in a temp folder. */
export function copyCorpus(): string {
  const dir = join(tempDir(), 'corpus');
  cpSync(CORPUS_DIR, dir, { recursive: true });
  return dir;
}

/** Ingest the handbook into a fresh index file; closed after the test. */
export async function handbookIndex(embedder: EmbeddingModel = createLocalEmbedder()): Promise<GroundcheckIndex> {
  return corpusIndex(CORPUS_DIR, embedder);
}

/** Ingest a corpus folder (e.g. `fixtures/gym/corpus`) into a fresh index file; closed after the test. */
export async function corpusIndex(corpus: string, embedder: EmbeddingModel = createLocalEmbedder()): Promise<GroundcheckIndex> {
  const index = openIndex({ path: join(tempDir(), 'index.db'), embedder });
  cleanups.push(() => index.close());
  await ingestDirectory(index, corpus);
  return index;
}

/** A dev corpus of `fixtures/` other than the handbook: `shop`, `saas`, `gym`, `council`, `hotel`, `carhire`, `energy`, `dental`, `campus-it`, `library` or `rail`. */
export function fixtureCorpus(name: 'shop' | 'saas' | 'gym' | 'council' | 'hotel' | 'carhire' | 'energy' | 'dental' | 'campus-it' | 'library' | 'rail'): string {
  return fileURLToPath(new URL(`../../fixtures/${name}/corpus`, import.meta.url));
}

/**
 * The handbook's chunks as a prompt holds them (source line, section, body), by chunk id: read
 * from a fresh index when called (in a `beforeAll`), so they outlive the index, which is closed
 * after the first test.
 */
export async function handbookPassages(): Promise<(id: string) => EvidencePassage> {
  const index = await handbookIndex();
  const texts = new Map([...index.chunkHashes().keys()].map((id) => [id, index.getChunk(id)!.modelText]));
  return (id) => {
    const text = texts.get(id);
    if (text === undefined) throw new Error(`no handbook chunk ${id}`);
    return { id, text, kind: 'chunk' };
  };
}

/** Register a cleanup to run after the current test. */
export function onCleanup(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}
