/**
 * The packed package, installed the way a user installs it: `npm pack`, then `npm install
 * --offline` of the tarball into a fresh project, which must typecheck strictly (`strict`,
 * `skipLibCheck: false`, `exactOptionalPropertyTypes`) and run, once with Express 5 and once with
 * Express 4 (express is a peer dependency).
 *
 * Offline: the consumer project gets a lockfile made from this repository's own (the versions
 * this suite runs with; Express 4 from the `express4` / `express4-types` aliases) plus the tarball,
 * each entry with its tarball URL and integrity, so npm takes every package from the local cache
 * that `npm ci` filled by its integrity, and needs no registry answer at all. `--ignore-scripts`
 * skips building better-sqlite3 again (minutes); the run copies this checkout's binary of the same
 * version instead. About 15–25 s on the shared 2-core machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../src/test-support/fixtures.js';
import { childEnv } from './child-env.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const ADDON = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

interface LockEntry {
  version: string;
  name?: string;
  dev?: boolean;
  [field: string]: unknown;
}
type Lock = { packages: Record<string, LockEntry & { resolved?: string; link?: boolean }> };

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * This repository's lockfile for a consumer that depends on the tarball, express and
 * @types/express: the root replaced, groundcheck's entry added, for Express 4 the aliases moved to
 * the real names (with what is nested under them), and every registry entry given its tarball URL
 * (the repository's lock leaves it out), so that nothing needs a registry's package document.
 */
function consumerLock(express: 4 | 5, tarballPath: string): { dependencies: Record<string, string>; lock: object } {
  const packages = { ...(JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock).packages };
  const rename = (from: string, to: string) => {
    for (const path of Object.keys(packages)) if (path === to || path.startsWith(`${to}/`)) delete packages[path];
    for (const path of Object.keys(packages)) {
      if (path !== from && !path.startsWith(`${from}/`)) continue;
      packages[to + path.slice(from.length)] = packages[path]!;
      delete packages[path];
    }
  };
  if (express === 4) {
    rename('node_modules/express4', 'node_modules/express');
    rename('node_modules/express4-types', 'node_modules/@types/express');
  }
  const root = packages['']! as unknown as { name: string; version: string; license: string; dependencies: Record<string, string>; peerDependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string> };
  delete packages[''];
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.resolved !== undefined || entry.link === true) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages[path] = { ...entry, resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
  }
  const file = `file:${tarballPath}`;
  const dependencies = { groundcheck: file, express: packages['node_modules/express']!.version, '@types/express': packages['node_modules/@types/express']!.version };
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarballPath)).digest('base64')}`;
  packages['node_modules/groundcheck'] = { version: root.version, resolved: file, integrity, license: root.license, dependencies: root.dependencies, peerDependencies: root.peerDependencies, bin: root.bin, engines: root.engines };
  return { dependencies, lock: { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'consumer', version: '1.0.0', dependencies }, ...packages } } };
}

/** Uses what a consumer uses, typed: the plain record, the stream helper, the dashboard, the testing entry point. */
const CONSUMER_TS = `
import express from 'express';
import { captureRag, createLogger, groundcheckDashboard, groundcheckErrorHandler, openCaptureStore, streamChat, streamRagAnswer, type PlainTrace, type RagTrace } from 'groundcheck';
import { MockChatModel } from 'groundcheck/testing';

const store = openCaptureStore({ path: 'captures.db' });
const capture = captureRag({ store, logger: createLogger({ level: 'silent' }) });
const app = express();
app.use(capture);
app.post('/ask', express.json(), (req, res) => {
  const record: PlainTrace = { query: String(req.body.message), chunks: [{ id: 'hr-7', text: 'Probation lasts six months.', score: 0.8 }], answer: 'Six months.' };
  const traceId: string | null = req.rag?.record(record) ?? null;
  const traces: readonly RagTrace[] = req.rag?.traces ?? [];
  res.json({ traceId, recorded: traces.length });
});
app.post('/stream', async (req, res) => {
  const answer = streamRagAnswer(req, res, { record: { query: 'q', chunks: [] } });
  for await (const part of streamChat(new MockChatModel({ text: 'Six months.' }), { messages: [{ role: 'user', content: 'q' }], abortSignal: answer.signal })) {
    if (part.type === 'text-delta') answer.write(part.text);
    else answer.end({ usage: part.result.usage });
  }
});
const dashboard = groundcheckDashboard({ store, token: 'correct-horse-battery-staple', env: {} });
app.use('/groundcheck', dashboard);
app.use('/api/traces', dashboard.traceApi);
app.use(groundcheckErrorHandler());
export { app, capture };
`;

/** The same app in plain JavaScript, run from the installed package: what it prints is checked below. */
const CONSUMER_RUN = `
import express from 'express';
import { createRequire } from 'node:module';
import { captureRag, createLogger, groundcheckDashboard, groundcheckErrorHandler, openCaptureStore, streamChat, streamRagAnswer } from 'groundcheck';
import { MockChatModel } from 'groundcheck/testing';

// The writer thread runs the compiled entry the package ships (no TypeScript loader here).
const store = openCaptureStore({ path: 'captures.db', writerThread: true });
const capture = captureRag({ store, logger: createLogger({ level: 'silent' }) });
const app = express();
app.use(capture);
app.post('/ask', express.json(), (req, res) => res.json({ traceId: req.rag.record({ query: req.body.message, chunks: [{ id: 'hr-7', text: 'Probation lasts six months.' }], answer: 'Six months.' }) }));
app.post('/stream', async (req, res) => {
  const answer = streamRagAnswer(req, res, { record: { query: 'q', chunks: [] } });
  for await (const part of streamChat(new MockChatModel({ text: 'Six months.' }), { messages: [{ role: 'user', content: 'q' }] })) {
    if (part.type === 'text-delta') answer.write(part.text);
    else answer.end();
  }
});
const dashboard = groundcheckDashboard({ store, token: 'correct-horse-battery-staple', env: {} });
app.use('/groundcheck', dashboard);
app.use(groundcheckErrorHandler());
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = 'http://127.0.0.1:' + server.address().port;
const auth = { authorization: 'Bearer correct-horse-battery-staple' };
const asked = await (await fetch(base + '/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'How long is probation?' }) })).json();
const streamed = await (await fetch(base + '/stream', { method: 'POST' })).text();
await capture.flush();
const listed = await fetch(base + '/groundcheck/api/captures', { headers: auth });
const script = await fetch(base + '/groundcheck/assets/dashboard.js');
const page = await (await fetch(base + '/groundcheck', { headers: auth })).text();
// Each store thread reports its id once it runs; on a loaded machine the checkpoint thread's report
// can still be on its way after the flush (seen once in a full local run): wait for it, up to 2 s.
for (let tries = 0; tries < 100 && store.backgroundThreadIds().length < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
const result = {
  express: createRequire(import.meta.url)('express/package.json').version,
  traceId: asked.traceId,
  streamed,
  apiStatus: listed.status,
  answers: (await listed.json()).captures.map((row) => row.capture.answer),
  storeThreads: store.backgroundThreadIds().length,
  noAuth: (await fetch(base + '/groundcheck/api/captures')).status,
  scriptStatus: script.status,
  scriptType: script.headers.get('content-type'),
  pageNamesBase: page.includes('data-base="/groundcheck"'),
};
server.close();
store.close();
console.log(JSON.stringify(result));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
  },
  include: ['index.ts'],
};

let tarball = '';
let packedFiles: string[] = [];

// Shared by the tests of this file (tempDir() folders go after each test).
const out = mkdtempSync(join(tmpdir(), 'groundcheck-pack-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(() => {
  // prepack builds dist/ first (clean, compile, copy the dashboard's static files).
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', out], ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = join(out, packed!.filename);
  packedFiles = packed!.files.map((file) => file.path);
}, 120_000);

describe('the packed package', () => {
  it('ships dist, bin, the LICENSE and the dashboard files; no source maps, no sources, no tests', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string; files: string[]; exports: Record<string, string | Record<string, string>>; peerDependencies: Record<string, string> };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(packedFiles).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/groundcheck.js', 'dist/capture/dashboard/public/dashboard.js', 'dist/capture/dashboard/public/rates.js', 'dist/capture/dashboard/public/dashboard.css']));
    // The example eval suite, so `groundcheck eval` with no flags runs from an install.
    expect(packedFiles).toEqual(expect.arrayContaining(['evals/suites/handbook.json', 'evals/suites/smoke.json', 'fixtures/corpus/leave-policy.md', 'fixtures/questions/handbook.jsonl', 'fixtures/memory/leave-2024.md']));
    // Every shipped suite runs from an install: its corpus and questions are shipped with it.
    for (const suite of packedFiles.filter((file) => /^evals\/suites\/[^/]+\.json$/.test(file))) {
      const { corpus, questions } = JSON.parse(readFileSync(join(ROOT, suite), 'utf8')) as { corpus?: string; questions?: string };
      if (questions) expect(packedFiles, suite).toContain(join('evals/suites', questions));
      if (corpus) expect(packedFiles.some((file) => file.startsWith(`${join('evals/suites', corpus)}/`)), `${suite}: ${corpus}`).toBe(true);
    }
    expect(packedFiles.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(packedFiles.filter((file) => file.startsWith('src/') || /\.test\.|test-support/.test(file))).toEqual([]);
    // Every export target is in the tarball.
    const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
    for (const target of targets) expect(packedFiles, target).toContain(target.replace(/^\.\//, ''));
    expect(manifest.peerDependencies.express).toBe('^4.21.0 || ^5.0.0');
  });

  it.each([5, 4] as const)(
    'installs offline into a fresh project with Express %i that typechecks strictly (skipLibCheck: false) and runs',
    (express) => {
      const dir = tempDir('groundcheck-consumer-');
      const { dependencies, lock } = consumerLock(express, tarball);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies }, null, 2));
      writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
      npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
      expect(JSON.parse(readFileSync(join(dir, 'node_modules', 'express', 'package.json'), 'utf8')).version).toMatch(new RegExp(`^${express}\\.`));
      expect(existsSync(join(dir, 'node_modules', '@types', 'better-sqlite3', 'index.d.ts'))).toBe(true);

      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
      writeFileSync(join(dir, 'index.ts'), CONSUMER_TS);
      const typecheck = spawnSync(process.execPath, [TSC, '-p', dir], { cwd: dir, encoding: 'utf8' });
      expect(typecheck.stdout + typecheck.stderr).toBe('');
      expect(typecheck.status).toBe(0);

      mkdirSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
      copyFileSync(join(ROOT, ADDON), join(dir, ADDON));
      writeFileSync(join(dir, 'run.mjs'), CONSUMER_RUN);
      const run = spawnSync(process.execPath, ['run.mjs'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 30_000 });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
        express: expect.stringMatching(new RegExp(`^${express}\\.`)),
        traceId: expect.any(String),
        streamed: expect.stringMatching(/^event: delta\ndata: \{"text":"Six"\}\n\nevent: delta\ndata: \{"text":" months\."\}\n\nevent: done\ndata: \{"traceId":"[0-9a-f-]{36}"\}\n\n$/),
        apiStatus: 200,
        answers: ['Six months.', 'Six months.'],
        // The writer thread and the checkpoint thread.
        storeThreads: 2,
        noAuth: 401,
        scriptStatus: 200,
        scriptType: expect.stringMatching(/^(text|application)\/javascript; charset=utf-8$/i),
        pageNamesBase: true,
      });

      // `groundcheck eval` with no flags, from the installed package: the bundled example suite.
      const evaluated = spawnSync(process.execPath, [join(dir, 'node_modules', 'groundcheck', 'bin', 'groundcheck.js'), 'eval', '--no-gates', '--single-order', '--concurrency', '8'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 60_000 });
      expect(evaluated.stderr).toContain(`no --suite given: running the bundled example suite (the handbook, 78 questions, offline) from ${join(dir, 'node_modules', 'groundcheck', 'evals', 'suites', 'handbook.json')}`);
      expect(evaluated.stdout).toMatch(/^handbook: 78 questions, 1 run\(s\)/);
      expect(evaluated.status).toBe(0);
    },
    120_000,
  );
});
