// One judge worker of the chaos test: the real worker (createJudgeWorker) with the offline
// heuristic judge on the store at `url`, as `groundcheck judge-worker` runs it, in a process that
// loads only what the worker needs (the CLI takes seconds to load on a busy 2-core machine, and
// the test restarts workers twenty times). SIGTERM stops it cleanly; the test mostly SIGKILLs it.
import { createHeuristicFaithfulnessJudge } from '../../../judge/index.js';
import { createLogger } from '../../logging.js';
import { openCaptureStore } from '../../store.js';
import { createJudgeWorker } from '../../worker.js';

const [url, leaseMs] = process.argv.slice(2);
if (url === undefined || leaseMs === undefined) throw new Error('usage: chaos-worker <url> <leaseMs>');
const store = openCaptureStore({ path: url as `postgres://${string}`, maxConnections: 3 });
await store.ready();
const logger = createLogger({ level: process.env.GROUNDCHECK_LOG_LEVEL ?? 'warn' }, { write: (line: string) => process.stderr.write(line) });
const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, concurrency: 2, pollMs: 25, leaseMs: Number(leaseMs), logger, keepAlive: true });
worker.start();
process.stderr.write('chaos worker: judging\n');
await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
await worker.stop();
await store.close();
