import type { CliIO } from '../cli/io.js';
import { main } from '../cli/main.js';
import { tempDir } from './fixtures.js';

/** Run the CLI in-process with captured stdout and stderr, in `cwd` (a fresh temp folder by default). */
export async function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<{ code: number; stdout: string; stderr: string; cwd: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const cwd = options.cwd ?? tempDir();
  const io: CliIO = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env: options.env ?? {}, cwd };
  const code = await main(args, io);
  return { code, stdout: out.join(''), stderr: err.join(''), cwd };
}
