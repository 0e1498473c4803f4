import { fileURLToPath } from 'node:url';

const guard = fileURLToPath(new URL('./network-guard.mjs', import.meta.url));

/** Environment for child processes spawned by tests: the network guard loaded, no inherited keys. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot']) if (process.env[key] !== undefined) env[key] = process.env[key];
  env.NODE_OPTIONS = `--import=${guard}`;
  return { ...env, ...extra };
}
