import { spawn, type ChildProcess } from 'node:child_process';
import { BenchUsageError } from './args.js';

/**
 * A benchmark server in its own process, driven over Node's IPC channel: the parent asks for
 * figures (`request('stats')`) without going through the HTTP port it is measuring.
 */
export interface ChildServer {
  readonly pid: number;
  /** What the child sent with its `ready` message (e.g. the ports it listens on). */
  readonly ready: Record<string, unknown>;
  request<Reply>(type: string, payload?: Record<string, unknown>): Promise<Reply>;
  /** Ask the child to shut down; kills it if it has not exited after `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}

export interface SpawnChildServerOptions {
  /** Pin the child to this CPU with `taskset` (Linux); `null`: no pinning. */
  cpu: number | null;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Longest wait for the child's `ready` message. [readyTimeoutMs=60000] */
  readyTimeoutMs?: number;
}

interface Message {
  id?: number;
  type: string;
  error?: string;
  [key: string]: unknown;
}

/**
 * Start `script` with the same Node flags as this process (so TypeScript loads through tsx as
 * here), wait for its `{type: 'ready', …}` message, and return a handle.
 */
export async function spawnChildServer(script: string, args: readonly string[], options: SpawnChildServerOptions): Promise<ChildServer> {
  const node = [process.execPath, ...process.execArgv, script, ...args];
  const [command, ...commandArgs] = options.cpu === null ? node : ['taskset', '-c', String(options.cpu), ...node];
  const child: ChildProcess = spawn(command!, commandArgs, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (value: Message) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not report ready within ${options.readyTimeoutMs ?? 60_000} ms`)), options.readyTimeoutMs ?? 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject((error as NodeJS.ErrnoException).code === 'ENOENT' && options.cpu !== null ? new BenchUsageError('taskset is not installed; pass --no-pin') : error);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
      for (const waiter of pending.values()) waiter.reject(new Error(`${script} exited (code ${code}, signal ${signal})`));
      pending.clear();
    });
    child.on('message', (raw) => {
      const message = raw as Message;
      if (message.type === 'ready') {
        clearTimeout(timer);
        const { type: _type, ...payload } = message;
        resolve(payload);
        return;
      }
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id!);
      if (message.type === 'error') waiter.reject(new Error(`child server: ${message.error}`));
      else waiter.resolve(message);
    });
  });

  return {
    pid: child.pid!,
    ready,
    request<Reply>(type: string, payload: Record<string, unknown> = {}) {
      if (exited) return Promise.reject(new Error(`${script} has exited`));
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: Message) => void, reject });
        child.send({ ...payload, id, type });
      });
    },
    async close(timeoutMs = 30_000) {
      if (exited) return;
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}

/** Handlers for the parent's requests, by message type; each returns the reply's fields. */
export type ChildHandlers = Record<string, (message: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>>;

/**
 * The child side: report `ready` with `ready`'s fields, answer requests with `handlers`, and run
 * `onClose` (then exit) when the parent says `close` or goes away.
 */
export function serveParent(ready: Record<string, unknown>, handlers: ChildHandlers, onClose: () => Promise<void>): void {
  if (!process.send) throw new Error('this script is started by a benchmark (it needs an IPC channel)');
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void onClose().finally(() => process.exit(0));
  };
  process.on('message', (raw) => {
    const message = raw as Message;
    if (message.type === 'close') return close();
    const handler = handlers[message.type];
    if (!handler) {
      process.send!({ id: message.id, type: 'error', error: `unknown request ${message.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message))
      .then(
        (reply) => process.send!({ ...reply, id: message.id, type: 'reply' }),
        (error: unknown) => process.send!({ id: message.id, type: 'error', error: (error as Error)?.stack ?? String(error) }),
      );
  });
  process.on('disconnect', close);
  process.send({ ...ready, type: 'ready' });
}
