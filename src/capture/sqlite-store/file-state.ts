import { accessSync, constants, existsSync, rmSync, statSync } from 'node:fs';
import type { StoreHealthReason } from '../store-health.js';

/**
 * What the SQLite store knows about its file beyond SQLite's own errors: whether the file at its
 * path is still the one it opened (SQLite keeps writing to a deleted or replaced file's old inode,
 * and those writes are lost), whether it can be written, and what a SQLite error code means for
 * the store's health. Only `store.ts` uses this.
 */

/** A file's device and inode: the same path with another identity is another file. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** The identity of the file at `path`, or `null` when there is none. */
export function fileIdentity(path: string): FileIdentity | null {
  try {
    const stats = statSync(path);
    return { dev: stats.dev, ino: stats.ino };
  } catch {
    return null;
  }
}

/** Why the file at `path` is not the one opened (`file_deleted`, `file_replaced`), or `null` when it is. */
export function fileChange(path: string, opened: FileIdentity): 'file_deleted' | 'file_replaced' | null {
  const current = fileIdentity(path);
  if (current === null) return 'file_deleted';
  return current.dev === opened.dev && current.ino === opened.ino ? null : 'file_replaced';
}

/**
 * Whether this process may write the store file and its write-ahead log: access(2), which the
 * kernel answers as it will answer SQLite's open (permission bits for a normal user; for root, the
 * immutable flag and read-only mounts only).
 */
export function isWritable(path: string): boolean {
  for (const file of [path, `${path}-wal`]) {
    if (file !== path && !existsSync(file)) continue;
    try {
      accessSync(file, constants.W_OK);
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Remove the write-ahead log and shared-memory files at `path` left by the file that was there
 * before (deleted or replaced): a new file at the same path must not read the old file's log
 * (SQLite would replay the old pages into it). SQLite does not remove them itself when the last
 * connection to a moved file closes. Called once this process's own connections to the old file
 * are closed. A log moved in beside a replacement file would be removed too: move in checkpointed
 * files only (as `VACUUM INTO` or the backup API make them).
 */
export function removeStaleLogs(path: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/** Longest pause between two tries of a write that met another connection's lock (the store's timer retries and its writer thread's waits). */
export const MAX_BUSY_PAUSE_MS = 50;

export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * What a SQLite error says about the store: a reason to degrade and retry later, or `null` for an
 * error of the call itself (a constraint, a bug), which is thrown as it is.
 */
export function healthReasonOf(error: unknown, path: string): StoreHealthReason | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  if (isBusyError(error)) return 'busy';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL' || code === 'SQLITE_CANTOPEN') return isWritable(path) ? 'io_error' : 'read_only';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return 'unusable';
  return null;
}
