import type { CliIO } from '../cli/io.js';
import { main } from '../cli/main.js';

/** Run the CLI in this process with `env` as its whole environment; what it wrote and its exit code. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env, cwd: process.cwd() };
  const code = await main(args, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}
