import Database from 'better-sqlite3';
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CaptureDecoder } from './capture-codec.js';
import { SqliteCaptureLog } from './capture-log.js';
import { fileChange, fileIdentity, isBusyError, MAX_BUSY_PAUSE_MS } from './file-state.js';
import { registerCaptureFunctions } from './functions.js';
import { BatchUnavailableError, plainError, prepareAndWrite, RedactorsByKey } from './raw-write.js';
import { compactWritten, FILE_CHANGE_CODES, type WriterThreadData, type WriterThreadReply, type WriterThreadRequest } from './writer-thread.js';
import type { RawWriteOptions } from './raw-write.js';

/**
 * The capture store's writer thread (started by `writer-thread.ts`): its own connection to the
 * store file, on which it redacts, caps and writes the batches the store posts, one at a time, in
 * the order posted. A lock held by another connection is waited for here, where the wait blocks
 * no event loop: tried again after pauses that double up to 50 ms, for up to the store's
 * `busyTimeoutMs`. The pauses are `Atomics.wait`, not SQLite's own busy wait: a thread stopped
 * while it sits inside SQLite brings the whole process down (better-sqlite3 then throws into a
 * terminating isolate: "FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal", seen in this file's
 * test), and one stopped in `Atomics.wait` just ends.
 */

const data = workerData as WriterThreadData;
const port = parentPort!;

// The thread starts a moment after the store opened the file: if another file sits at the path by
// now, it must not open it (the store reopens the path itself and starts another thread).
const found = fileIdentity(data.path);
if (found === null || found.dev !== data.identity.dev || found.ino !== data.identity.ino) {
  throw new Error(`${data.path} was deleted or replaced before the capture writer thread started`);
}
const db = new Database(data.path, { fileMustExist: true });
db.pragma('foreign_keys = ON');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
registerCaptureFunctions(db);
const log = new SqliteCaptureLog(db, Date.now);
const redactors = new RedactorsByKey();
const pause = new Int32Array(new SharedArrayBuffer(4));
/** The chunks the store's encoder has numbered, learnt from the batches in the order posted. */
const decoder = new CaptureDecoder();

/** The options of the batches (posted only when they change). */
let options: RawWriteOptions | null = null;

/**
 * Whether the file at the path is still the one the thread opened, asked here before and after each
 * write rather than on the thread serving requests: SQLite keeps writing to a deleted or replaced
 * file's old inode, and those writes are lost. A change fails the batch as unavailable, with a
 * code the store reads as `file_deleted` / `file_replaced`: the store reopens its path and the batch
 * is written again.
 */
function checkFile(): void {
  const change = fileChange(data.path, data.identity);
  if (change === null) return;
  const message = change === 'file_deleted' ? `${data.path} was deleted while the store was open` : `${data.path} was replaced by another file while the store was open`;
  throw new BatchUnavailableError({ name: 'Error', message, code: FILE_CHANGE_CODES[change] });
}

function writeWaitingForLock(request: Extract<WriterThreadRequest, { type: 'write' }>) {
  const giveUpAt = performance.now() + data.busyTimeoutMs;
  // Taken before anything can fail: the store counts them as received once posted.
  if (request.options !== null) options = request.options;
  if (options === null) throw new Error('the first batch posted to the capture writer thread carried no options');
  const captures = decoder.decode(request.captures);
  let pauseMs = 1;
  for (;;) {
    try {
      checkFile();
      const result = prepareAndWrite(log, captures, options, redactors, data.path);
      checkFile();
      return result;
    } catch (error) {
      if (!(error instanceof BatchUnavailableError && isBusyError(error)) || performance.now() >= giveUpAt) throw error;
      Atomics.wait(pause, 0, 0, pauseMs);
      pauseMs = Math.min(pauseMs * 2, MAX_BUSY_PAUSE_MS);
    }
  }
}

port.on('message', (request: WriterThreadRequest) => {
  if (request.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: WriterThreadReply;
  try {
    const result = writeWaitingForLock(request);
    const written = compactWritten(result);
    reply = written === null ? { id: request.id, result } : [request.id, ...written];
  } catch (error) {
    reply = { id: request.id, unavailable: error instanceof BatchUnavailableError, error: error instanceof BatchUnavailableError ? error.plain : plainError(error) };
  }
  port.postMessage(reply);
});

port.postMessage({ type: 'ready', threadId: linuxThreadId() } satisfies WriterThreadReply);

/** This thread's kernel task id (Linux), for benchmarks that read its CPU time; `null` elsewhere. */
function linuxThreadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}
