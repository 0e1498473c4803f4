import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import { isLiveJudgeKind, LIVE_JUDGE_KINDS, LIVE_JUDGE_KINDS_IN_WORDS } from '../../capture/judge-kinds.js';
import { captureDbPath, EXIT, integerFlag, UsageError, type Command } from '../io.js';

export const judgeWorkerCommand: Command = {
  name: 'judge-worker',
  summary: 'Judge captured traffic out of band, with the eval judge (crash-safe; resumes where it stopped)',
  usage:
    `groundcheck judge-worker [--db <captures.db>|postgres://…] [--judge ${LIVE_JUDGE_KINDS.join('|')}] [--settle-ms <n>] [--concurrency <n>] ` +
    '[--poll-ms <n>] [--lease-ms <n>] [--metrics-port <n>] [--once]',
  async run(args, io) {
    const { values } = parseArgs({
      args,
      allowPositionals: false,
      options: {
        db: { type: 'string' },
        judge: { type: 'string' },
        'settle-ms': { type: 'string', default: '3000' },
        concurrency: { type: 'string', default: '2' },
        'poll-ms': { type: 'string', default: '1000' },
        'lease-ms': { type: 'string' },
        'metrics-port': { type: 'string' },
        once: { type: 'boolean', default: false },
      },
    });
    const settleMs = integerFlag(values['settle-ms'], '--settle-ms', 0);
    const concurrency = integerFlag(values.concurrency, '--concurrency', 1);
    const pollMs = integerFlag(values['poll-ms'], '--poll-ms', 1);
    // How long a killed worker's captures wait before another worker takes them (a store that cannot tell a worker is gone, like Postgres, waits that long).
    const leaseMs = values['lease-ms'] === undefined ? undefined : integerFlag(values['lease-ms'], '--lease-ms', 1);
    const metricsPort = values['metrics-port'] === undefined ? undefined : integerFlag(values['metrics-port'], '--metrics-port', 0);
    if (values.judge !== undefined && !isLiveJudgeKind(values.judge)) {
      throw new UsageError(`--judge must be ${LIVE_JUDGE_KINDS_IN_WORDS}, not ${values.judge}`);
    }

    // Loaded here, not at the top: the CLI's other commands should not pay for the judges and the worker.
    const [{ createLogger }, { loadLiveJudge }, { createCaptureMetrics }, { connectCaptureStore }, { createJudgeWorker }] = await Promise.all([
      import('../../capture/logging.js'),
      import('../../capture/judge-config.js'),
      import('../../capture/metrics.js'),
      import('../../capture/store.js'),
      import('../../capture/worker.js'),
    ]);
    const logger = createLogger({ level: io.env.GROUNDCHECK_LOG_LEVEL ?? 'info' }, { write: (line: string) => io.stdout.write(line) });
    const { judge, description } = await loadLiveJudge(io.env, values.judge);
    const path = captureDbPath(values.db, io);
    const store = await connectCaptureStore({ path, create: false });
    const metrics = createCaptureMetrics();
    // Judgments over OTLP when GROUNDCHECK_OTLP_ENDPOINT is set; the OpenTelemetry packages load only then.
    const { otlpOptionsFromEnv } = await import('../../capture/otel/options.js');
    const otlpOptions = otlpOptionsFromEnv(io.env);
    const otlp = otlpOptions ? await (await import('../../capture/otel/exporter.js')).createOtlpExporter({ ...otlpOptions, metrics, logger }) : null;
    const worker = createJudgeWorker({ store, judge, settleMs, concurrency, pollMs, ...(leaseMs !== undefined ? { leaseMs } : {}), logger, metrics, keepAlive: true, ...(otlp ? { onJudged: otlp.onJudged } : {}) });
    let server: Server | undefined;
    if (metricsPort !== undefined) {
      server = createServer((req, res) => {
        if (req.url !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        metrics.registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
          () => res.writeHead(500).end(),
        );
      });
      await new Promise<void>((resolve) => server!.listen(metricsPort, '127.0.0.1', resolve));
      const address = server.address();
      logger.info({ event: 'judge.metrics', url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : metricsPort}/metrics` }, 'metrics served');
    }
    io.stderr.write(`groundcheck judge-worker: judging ${store.location} with the ${description} judge${values.once ? ' (once)' : ''}${otlp ? `; judgments exported to ${otlp.endpoint} as ${otlp.evaluations}` : ''}\n`);

    try {
      worker.start();
      if (values.once) {
        await worker.whenIdle();
      } else {
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      }
      const paused = worker.paused;
      const reason = worker.pauseReason;
      await worker.stop();
      io.stderr.write(
        `groundcheck judge-worker: stored ${worker.stats.stored} judgment(s), ${worker.stats.failures} failed attempt(s); ` +
          `${await store.pendingCount(worker.judgeVersion)} capture(s) still waiting\n`,
      );
      if (paused) {
        io.stderr.write(`groundcheck judge-worker: paused on an authentication or billing error: ${reason}\n`);
        return EXIT.failure;
      }
      return EXIT.ok;
    } finally {
      await worker.stop();
      await otlp?.shutdown();
      server?.close();
      await store.close();
    }
  },
};
