import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Write-ahead-log checkpoints of a capture store, taken on a worker thread with its own
 * connection, so the event loop that writes captures never waits for them.
 *
 * A checkpoint copies the log into the database file and syncs both to disk (`synchronous =
 * NORMAL`). Taken inline, SQLite runs one inside whichever commit crosses 1000 log pages: every
 * second or two under load, each one a blocking fsync of the app's event loop. On a virtual disk
 * that was most of what capturing cost the demo (bench:middleware: 5.0% throughput with inline
 * checkpoints, 1.3% with none). A passive checkpoint from another connection neither blocks nor
 * waits for the writer; SQLite then restarts the log from its beginning at a later commit.
 *
 * Only `store.ts` uses this. If the thread cannot start or dies, the store goes back to SQLite's
 * inline checkpoints (nothing is lost either way; only the cost moves back).
 */

/** How often the thread checkpoints. [500 ms] */
export const CHECKPOINT_INTERVAL_MS = 500;

// Plain CommonJS evaluated in the thread: no loader, no TypeScript, only the SQLite driver.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
// The thread starts a moment after the store opened the file: if another file sits at the path by
// now, it must not open it (its last close would checkpoint the old file's log into it).
const found = statSync(workerData.path);
if (workerData.ino !== null && (found.dev !== workerData.dev || found.ino !== workerData.ino)) throw new Error('the capture store file was replaced before the checkpoint thread started');
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
// Its kernel task id (Linux), for benchmarks that read its CPU time.
try { parentPort.postMessage({ threadId: Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()) }); } catch {}
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  try {
    checkpoint();
  } finally {
    db.close();
    parentPort.close();
  }
});
`;

export class BackgroundCheckpointer {
  private worker: Worker | null;
  /** The thread's kernel task id once it is running (Linux). */
  threadId: number | null = null;

  /**
   * @param path the capture store file (in WAL mode).
   * @param onFailure called once if the thread fails to start or stops on an error.
   * @param options.driver the module the thread loads as its SQLite driver (tests pass one that fails).
   * @param options.identity the file the store opened: the thread opens the path only while it is still that file.
   */
  constructor(path: string, onFailure: (error: Error) => void, options: { intervalMs?: number; driver?: string; identity?: { dev: number; ino: number } | null } = {}) {
    const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    const driver = options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3');
    // execArgv: [] keeps the parent's loaders (tsx, test runners) out of the thread.
    const worker = new Worker(THREAD_SOURCE, { eval: true, execArgv: [], workerData: { driver, path, intervalMs, dev: options.identity?.dev ?? null, ino: options.identity?.ino ?? null } });
    // Never keeps the process alive; the store closes it.
    worker.unref();
    let failed = false;
    const fail = (error: Error) => {
      if (failed || this.worker === null) return;
      failed = true;
      this.worker = null;
      onFailure(error);
    };
    worker.on('message', (message: { threadId?: unknown }) => {
      if (typeof message?.threadId === 'number' && Number.isInteger(message.threadId)) this.threadId = message.threadId;
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`checkpoint thread exited with code ${code}`)));
    this.worker = worker;
  }

  /**
   * Take a last checkpoint and end the thread. The returned Promise resolves once the thread's
   * connection is closed (the store waits for it before it opens another file at the same path);
   * callers that only stop it need not wait.
   */
  close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Kept alive until it has exited: a program whose last step is `await store.close()` would
    // otherwise end with the Promise unsettled, and nothing after the await would run.
    worker.ref();
    worker.postMessage('close');
    return exited;
  }
}
