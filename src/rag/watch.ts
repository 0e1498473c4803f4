import { watch, type FSWatcher } from 'node:fs';
import { InvalidInputError } from '../errors.js';
import { ingestDirectory, type IngestOptions, type IngestSummary } from './ingest.js';
import type { GroundcheckIndex } from './store.js';

export interface WatchOptions extends Omit<IngestOptions, 'onDocument'> {
  /** Quiet time after the last file event before re-ingesting (editors write a file in several steps). [debounceMs=250] */
  debounceMs?: number;
  /** Called after each ingest that changed something (added, replaced or removed a document), and after the first one. */
  onChange?: (summary: IngestSummary) => void;
  /** Called when an ingest fails (e.g. the folder was emptied); watching goes on. [onError=ignore] */
  onError?: (error: unknown) => void;
}

export interface DirectoryWatcher {
  /** The first, full ingest; resolves once it is done (rejects when the folder cannot be ingested). */
  readonly ready: Promise<IngestSummary>;
  /** Resolves when no event is waiting for its debounce and no ingest is running. */
  whenIdle(): Promise<void>;
  /** Stop watching; waits for a running ingest to finish. */
  close(): Promise<void>;
}

/**
 * Keep an index in step with a folder: ingest it once, then watch it (recursively) and, after
 * `debounceMs` without a new file event, run the same incremental ingest again, so an edited,
 * added or deleted file is re-chunked, added or removed while unchanged files are skipped.
 * Ingests never overlap: events during an ingest schedule one more run after it.
 *
 * @throws InvalidInputError `invalid_option` for a bad `debounceMs`; the folder's own errors
 *   (`not_found`, `not_a_folder`, `empty_corpus`) reject `ready`.
 * @example
 * const watcher = watchDirectory(index, 'fixtures/corpus', { onChange: (summary) => console.log(formatIngestSummary(summary)) });
 * await watcher.ready;
 * // … later
 * await watcher.close();
 */
export function watchDirectory(index: GroundcheckIndex, directory: string, options: WatchOptions = {}): DirectoryWatcher {
  const debounceMs = options.debounceMs ?? 250;
  if (!Number.isInteger(debounceMs) || debounceMs < 0 || debounceMs > 60_000) {
    throw new InvalidInputError(`option debounceMs ${String(debounceMs)} is invalid: use a whole number of milliseconds from 0 to 60000`, { code: 'invalid_option' });
  }
  const { debounceMs: _debounce, onChange, onError, ...ingestOptions } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let pending = false;
  let closed = false;
  let watcher: FSWatcher | null = null;
  const idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (timer === null && running === null && !pending) for (const resolve of idleWaiters.splice(0)) resolve();
  };
  const runIngest = (): Promise<void> => {
    pending = false;
    running = ingestDirectory(index, directory, ingestOptions)
      .then((summary) => {
        if (summary.added.length + summary.replaced.length + summary.removed.length > 0) onChange?.(summary);
      })
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        running = null;
        if (pending && !closed) void runIngest();
        settle();
      });
    return running;
  };
  const schedule = () => {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (running !== null) pending = true;
      else void runIngest();
    }, debounceMs);
  };

  const ready = ingestDirectory(index, directory, ingestOptions).then((summary) => {
    if (!closed) {
      watcher = watch(directory, { recursive: true }, schedule);
      watcher.on('error', (error) => onError?.(error));
    }
    onChange?.(summary);
    return summary;
  });

  return {
    ready,
    whenIdle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = false;
      await ready.catch(() => undefined);
      (watcher as FSWatcher | null)?.close();
      if (running !== null) await running;
      settle();
    },
  };
}
