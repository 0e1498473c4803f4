import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './fixtures.js';

/**
 * Make files unwritable for this process, for real: as root (the tests' usual user, whom
 * permission bits do not stop) with the immutable attribute, `chattr +i`, which refuses every
 * open for writing and every write, root's included (it needs a file system with attributes,
 * ext4/xfs/btrfs, and CAP_LINUX_IMMUTABLE); as any other user with `chmod a-w`. Returns a function
 * that makes them writable again; it also runs after the test, before temp folders are removed.
 *
 * An immutable file is what a read-only store looks like to SQLite: opened at start, SQLite opens
 * it read-only (`SQLITE_READONLY` on write); flagged while open, its writes fail (`SQLITE_IOERR_WRITE`).
 */
export function makeReadOnly(...paths: string[]): () => void {
  const files = paths.filter((path) => existsSync(path));
  const root = process.getuid?.() === 0;
  const modes = new Map(files.map((path) => [path, statSync(path).mode & 0o777]));
  if (root) execFileSync('chattr', ['+i', ...files]);
  else for (const path of files) chmodSync(path, 0o444);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (root) execFileSync('chattr', ['-i', ...files]);
    else for (const path of files) chmodSync(path, modes.get(path)!);
  };
  onCleanup(restore);
  return restore;
}

/**
 * Whether {@link makeReadOnly} can work on this machine: as root it needs `chattr` and a temp file
 * system with attributes (ext4/xfs/btrfs; not tmpfs or most overlay file systems). Tried once on a
 * real file; `reason` says why not, for the skip message.
 */
export function readOnlyFilesSupported(): { ok: true } | { ok: false; reason: string } {
  if (process.getuid?.() !== 0) return { ok: true };
  const folder = mkdtempSync(join(tmpdir(), 'gc-readonly-probe-'));
  const file = join(folder, 'probe');
  try {
    writeFileSync(file, 'x');
    execFileSync('chattr', ['+i', file], { stdio: 'pipe' });
    execFileSync('chattr', ['-i', file], { stdio: 'pipe' });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `as root a read-only file needs chattr +i, which failed here (${String((error as Error).message).split('\n')[0]})` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
