import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Capture } from '../types.js';
import { CaptureEncoder, type EncodedBatch } from './capture-codec.js';
import type { FileIdentity } from './file-state.js';
import { errorFromPlain, type PlainError, type RawWriteOptions, type RawWriteResult } from './raw-write.js';

/**
 * The capture store's writer thread, seen from the store: batches of captures as recorded go to a
 * worker thread that owns a connection of its own and redacts, caps and writes them there
 * (`writer-thread-entry.ts`), so the thread serving requests spends on a capture only what it
 * takes to hand it over (bench:capture-path). Only `store.ts` uses this.
 *
 * If the thread cannot start or stops, every pending write fails as retryable and `onFailure` is
 * called once; the store then writes on its own thread (nothing is lost, only the cost moves back).
 */

export interface WriterThreadData {
  path: string;
  identity: FileIdentity;
  busyTimeoutMs: number;
}

/**
 * `captures`: the batch as the thread's {@link CaptureEncoder} gives it (decoded there in the order
 * posted). `options`: `null` when they are those of the batch before (the common case: they come
 * from the middleware's configuration), so they are not cloned again for every batch.
 */
export type WriterThreadRequest = { type: 'write'; id: number; captures: EncodedBatch; options: RawWriteOptions | null } | { type: 'close' };

export type WriterThreadReply =
  | { type: 'ready'; threadId: number | null }
  | { id: number; result: RawWriteResult }
  /**
   * Every capture of the batch written and none asked back as stored (the common case): the write's
   * id, then one number per capture: its stored answer's length times two, plus one when it was cut
   * (`compactWritten`). A plain array: a reply of small objects cost the request thread more to read
   * than the batch's numbers, and an object around them costs its property names.
   */
  | number[]
  /** `unavailable`: the store cannot take the batch now (nothing was written); else the write failed on its own. */
  | { id: number; unavailable: boolean; error: PlainError };

/** A write the thread did not do because the store is unavailable (locked, read-only, failing disk), or because the thread stopped. */
export class WriterThreadUnavailableError extends Error {
  readonly code: string | null;
  constructor(readonly plain: PlainError) {
    super(plain.message);
    this.name = plain.name;
    this.code = plain.code;
  }
}

interface Pending {
  resolve(result: RawWriteResult): void;
  reject(error: Error): void;
}

export class WriterThread {
  private worker: Worker | null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Sends each chunk whole once; the thread's decoder numbers them the same way. */
  private readonly encoder = new CaptureEncoder();
  /** The options last posted (`null`: none yet, or the thread may have missed them). */
  private sentOptions: RawWriteOptions | null = null;
  private exited: Promise<void>;
  /** The thread's kernel task id once it is running (Linux), for benchmarks that read its CPU time. */
  threadId: number | null = null;

  /**
   * @param data the file the store opened: the thread opens the path only while it is still that file.
   * @param onFailure called once if the thread fails to start or stops on its own.
   */
  constructor(data: WriterThreadData, onFailure: (error: Error) => void) {
    const worker = startWorker(data);
    // Kept from ending the process only while a write is pending.
    worker.unref();
    this.worker = worker;
    let failed = false;
    const fail = (error: Error) => {
      if (this.worker === null) return;
      this.worker = null;
      this.rejectAll(stopped(`the capture writer thread stopped: ${error.message}`));
      if (!failed) {
        failed = true;
        onFailure(error);
      }
    };
    worker.on('message', (reply: WriterThreadReply) => this.onReply(reply));
    worker.on('error', (error) => fail(error));
    this.exited = new Promise((resolve) => {
      worker.on('exit', (code) => {
        fail(new Error(`the capture writer thread exited with code ${code}`));
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.worker !== null;
  }

  write(captures: readonly Capture[], options: RawWriteOptions): Promise<RawWriteResult> {
    const worker = this.worker;
    if (worker === null) return Promise.reject(stopped('the capture writer thread is not running'));
    const id = this.nextId++;
    return new Promise<RawWriteResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      const sent = this.sentOptions;
      const same = sent !== null && sent.redactionKey === options.redactionKey && sent.limits === options.limits && sent.returnStored === options.returnStored;
      try {
        worker.postMessage({ type: 'write', id, captures: this.encoder.encode(captures), options: same ? null : options } satisfies WriterThreadRequest);
        this.sentOptions = options;
      } catch (error) {
        // Not posted (a value that cannot be cloned): the chunks it numbered never reached the thread.
        this.resync();
        this.pending.delete(id);
        if (this.pending.size === 0) worker.unref();
        reject(error as Error);
      }
    });
  }

  /** End the thread after the writes already posted; resolves once its connection is closed. */
  close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return this.exited;
    // Kept alive until it has exited (see BackgroundCheckpointer.close).
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies WriterThreadRequest);
    return this.exited.then(() => this.rejectAll(stopped('the capture writer thread was closed')));
  }

  /** For tests: stop the thread at once, as a crash would. */
  terminateForTests(): Promise<void> {
    void this.worker?.terminate();
    return this.exited;
  }

  private onReply(reply: WriterThreadReply): void {
    if (Array.isArray(reply)) {
      const pending = this.settle(reply[0]!);
      pending?.resolve(expandWritten(reply, 1));
      return;
    }
    if ('type' in reply) {
      this.threadId = reply.threadId;
      return;
    }
    const pending = this.settle(reply.id);
    if (pending === undefined) return;
    if ('result' in reply) {
      pending.resolve(reply.result);
      return;
    }
    // The thread may have stopped reading the batch part-way.
    this.resync();
    if (reply.unavailable) pending.reject(new WriterThreadUnavailableError(reply.error));
    else pending.reject(errorFromPlain(reply.error));
  }

  /**
   * After a batch that may not have reached the thread whole: the next one numbers chunks afresh
   * and carries the options again, so nothing depends on what the thread may have missed.
   */
  private resync(): void {
    this.encoder.invalidate();
    this.sentOptions = null;
  }

  /** The pending write with this id, taken off the list (`undefined` when there is none). */
  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (pending === undefined) return undefined;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return pending;
  }

  private rejectAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/** A result as numbers, one per capture, when every capture was written and none is asked back; else `null`. */
export function compactWritten(result: RawWriteResult): number[] | null {
  if (result.retryError !== null) return null;
  const written: number[] = new Array(result.outcomes.length);
  for (let index = 0; index < result.outcomes.length; index++) {
    const outcome = result.outcomes[index]!;
    if (outcome.kind !== 'written' || outcome.stored !== null) return null;
    written[index] = outcome.answerLength * 2 + (outcome.truncated ? 1 : 0);
  }
  return written;
}

/** The result {@link compactWritten} stands for (its numbers from `from` on). */
export function expandWritten(written: readonly number[], from = 0): RawWriteResult {
  const outcomes: RawWriteResult['outcomes'] = [];
  for (let index = from; index < written.length; index++) {
    const value = written[index]!;
    outcomes.push({ kind: 'written', truncated: value % 2 === 1, answerLength: Math.floor(value / 2), stored: null });
  }
  return { outcomes, retryError: null };
}

/** The codes of a write the thread did not do, or must do again, because the file at the store's path is no longer the one it opened. */
export const FILE_CHANGE_CODES = { file_deleted: 'GROUNDCHECK_FILE_DELETED', file_replaced: 'GROUNDCHECK_FILE_REPLACED' } as const;

/** The file change a code of {@link FILE_CHANGE_CODES} stands for, or `null` for any other code. */
export function fileChangeOfCode(code: string | null): keyof typeof FILE_CHANGE_CODES | null {
  return code === FILE_CHANGE_CODES.file_deleted ? 'file_deleted' : code === FILE_CHANGE_CODES.file_replaced ? 'file_replaced' : null;
}

/** The code of a write that failed because the thread stopped (nothing the store did): written again, on a new thread or inline. */
export const WRITER_STOPPED = 'GROUNDCHECK_WRITER_STOPPED';

function stopped(message: string): WriterThreadUnavailableError {
  return new WriterThreadUnavailableError({ name: 'Error', message, code: WRITER_STOPPED });
}

/**
 * The thread runs the compiled `writer-thread-entry.js` beside this file; from the TypeScript
 * sources (tests, `tsx`), it loads the `.ts` entry through tsx's require hook.
 */
function startWorker(data: WriterThreadData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './writer-thread-entry.ts' : './writer-thread-entry.js', import.meta.url));
  // execArgv: [] keeps the parent's loaders and flags (test runners) out of the thread.
  if (!fromSource) return new Worker(entry, { execArgv: [], workerData: data });
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});`, { eval: true, execArgv: [], workerData: data });
}
