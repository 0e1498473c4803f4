import { createHash } from 'node:crypto';
import type { ChatCallOptions, ChatModel, ChatResult } from '../providers/spec.js';
import { openSqlite, type SqliteMigration } from '../sqlite/open.js';

/**
 * The LLM-call cache: one SQLite file (its own, never the index) mapping a hash of
 * (namespace, provider, model, messages, parameters) to the model's result, and a hash of
 * (target, question, mode, run) to an eval target's answer. Only successful calls are stored; an
 * error is never cached, so a rerun retries it. This module is the only code that touches the
 * cache file.
 */

/**
 * The cache file's schema (`PRAGMA user_version`), opened by `openSqlite` with kind `llm-cache`
 * (its `application_id` is in `src/sqlite/registry.ts`). Files from before the kinds had ids of
 * their own have the one table of version 1 and no version: they are re-stamped when opened.
 */
const CACHE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    up: `
      CREATE TABLE calls (
        key TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL
      );`,
  },
];

/** Bump when the key or the stored shape changes: old entries then simply miss. */
const KEY_VERSION = 1;

export const DEFAULT_CACHE_PATH = '.groundcheck/llm-cache.db';

export interface CacheStats {
  hits: number;
  misses: number;
  /** Results written (misses that succeeded and were cacheable). */
  writes: number;
}

export interface LlmCache {
  readonly path: string;
  get(key: string): ChatResult | undefined;
  set(key: string, entry: { provider: string; modelId: string; result: ChatResult }): void;
  /** Any stored JSON value (an eval target's answer); the caller validates what it reads back. */
  getValue(key: string): unknown;
  setValue(key: string, entry: { provider: string; modelId: string; value: unknown }): void;
  /** Number of stored results. */
  size(): number;
  close(): void;
}

export interface OpenLlmCacheOptions {
  /** SQLite file; parent folders are created. `:memory:` for a throwaway cache. [path='.groundcheck/llm-cache.db'] */
  path?: string;
  /** Clock for the rows' `created_at`, ms since epoch. [now=Date.now] */
  now?: () => number;
}

/**
 * Open (or create) the cache file.
 *
 * @throws DatabaseFileError (an InvalidInputError) `not_a_database`, `foreign_database`, `wrong_file_kind`
 *   (an index or a capture store), `schema_too_new`.
 * @example
 * const cache = openLlmCache({ path: '.groundcheck/llm-cache.db' });
 * const chat = withCache(openai.chat('gpt-4o-mini'), cache);
 */
export function openLlmCache(options: OpenLlmCacheOptions = {}): LlmCache {
  const path = options.path ?? DEFAULT_CACHE_PATH;
  const now = options.now ?? Date.now;
  const { db } = openSqlite({ path, kind: 'llm-cache', migrations: CACHE_MIGRATIONS, pathHint: 'pass another --cache path' });
  const select = db.prepare(`SELECT result FROM calls WHERE key = ?`).pluck();
  const insert = db.prepare(
    `INSERT INTO calls (key, provider, model, result, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET result = excluded.result, created_at = excluded.created_at`,
  );
  const count = db.prepare(`SELECT count(*) FROM calls`).pluck();
  const getValue = (key: string): unknown => {
    const stored = select.get(key) as string | undefined;
    return stored === undefined ? undefined : JSON.parse(stored);
  };
  const setValue = (key: string, entry: { provider: string; modelId: string; value: unknown }): void => {
    insert.run(key, entry.provider, entry.modelId, JSON.stringify(entry.value), new Date(now()).toISOString());
  };
  return {
    path,
    get: (key) => getValue(key) as ChatResult | undefined,
    set: (key, entry) => setValue(key, { provider: entry.provider, modelId: entry.modelId, value: entry.result }),
    getValue,
    setValue,
    size: () => count.get() as number,
    close() {
      if (db.open) db.close();
    },
  };
}

export interface WithCacheOptions {
  /**
   * Extra text in the key, for what the model object does not say: the endpoint's base URL, an
   * eval run number (so `--runs 3` samples three times but a rerun hits). [namespace='']
   */
  namespace?: string;
}

/** A cached chat model: a `ChatModel` plus hit and miss counts. */
export interface CachedChatModel extends ChatModel {
  readonly stats: CacheStats;
  /** The wrapped model. */
  readonly inner: ChatModel;
}

/**
 * Wrap any chat model so that identical calls are answered from the cache. Identical calls that
 * are in flight at the same time share one model call. Errors and `finishReason: 'error'` results
 * are never stored.
 *
 * @example
 * const chat = withCache(createLocalChatModel(), openLlmCache({ path: ':memory:' }));
 * await chat.generate({ messages });  // model called
 * await chat.generate({ messages });  // served from the cache
 * chat.stats; // { hits: 1, misses: 1, writes: 1 }
 */
export function withCache(chat: ChatModel, cache: LlmCache, options: WithCacheOptions = {}): CachedChatModel {
  const namespace = options.namespace ?? '';
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const inFlight = new Map<string, Promise<ChatResult>>();
  return {
    provider: chat.provider,
    modelId: chat.modelId,
    stats,
    inner: chat,
    async generate(call) {
      const key = cacheKey(chat, call, namespace);
      const stored = cache.get(key);
      if (stored) {
        stats.hits += 1;
        return stored;
      }
      const pending = inFlight.get(key);
      if (pending) {
        stats.hits += 1;
        return structuredClone(await pending);
      }
      stats.misses += 1;
      const request = chat.generate(call).then((result) => {
        if (result.finishReason !== 'error') {
          cache.set(key, { provider: chat.provider, modelId: chat.modelId, result });
          stats.writes += 1;
        }
        return result;
      });
      inFlight.set(key, request);
      try {
        return await request;
      } finally {
        inFlight.delete(key);
      }
    },
  };
}

/**
 * The cache key: a SHA-256 over everything that can change the reply. The abort signal is left
 * out (it does not change the answer).
 */
export function cacheKey(chat: Pick<ChatModel, 'provider' | 'modelId'>, call: ChatCallOptions, namespace = ''): string {
  const material = {
    v: KEY_VERSION,
    namespace,
    provider: chat.provider,
    model: chat.modelId,
    messages: call.messages.map((message) => [message.role, message.content]),
    temperature: call.temperature ?? null,
    maxOutputTokens: call.maxOutputTokens ?? null,
    seed: call.seed ?? null,
    responseFormat: call.responseFormat ?? null,
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/**
 * The cache key of an eval target's answer: a SHA-256 over the target's identity (its kind, and
 * what decides its answers: the request mapping of an HTTP target, the file and content of a
 * module; never a header's secret value), the question, the mode and the namespace (the run).
 */
export function targetCacheKey(target: { kind: string; identity: unknown }, question: string, mode: string, namespace = ''): string {
  const material = { v: KEY_VERSION, kind: `target:${target.kind}`, identity: target.identity, question, mode, namespace };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}
