/**
 * `npm start`: ingest the bundled handbook (incrementally) and keep watching it (the same path as
 * `groundcheck ingest <folder> --watch`: editing a handbook file changes the answers without a
 * restart), then serve the demo chatbot with capture and an in-process live judge. Offline
 * unless OPENAI_API_KEY is set.
 */
import { fileURLToPath } from 'node:url';
import { liveJudgeFromEnv } from '../src/capture/judge-config.js';
import { createLogger } from '../src/capture/logging.js';
import { createCaptureMetrics } from '../src/capture/metrics.js';
import { createOtlpExporter } from '../src/capture/otel/exporter.js';
import { otlpOptionsFromEnv } from '../src/capture/otel/options.js';
import { errorMessage, GroundcheckError } from '../src/errors.js';
import { modelsFromEnv } from '../src/providers/config.js';
import { formatIngestSummary } from '../src/rag/ingest.js';
import { watchDirectory } from '../src/rag/watch.js';
import { DEFAULT_TOP_K } from '../src/rag/retrieve.js';
import { openIndex } from '../src/rag/store.js';
import { createApp } from './app.js';

const DEFAULT_CORPUS = fileURLToPath(new URL('../fixtures/corpus', import.meta.url));
/** How long requests in flight at SIGTERM may take to finish before their connections are cut. */
const SHUTDOWN_GRACE_MS = 3000;

async function start(env: NodeJS.ProcessEnv): Promise<void> {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new GroundcheckError('invalid_config', `PORT=${env.PORT} is invalid: use a port number`);
  const host = env.HOST || '127.0.0.1';
  const corpus = env.GROUNDCHECK_CORPUS || DEFAULT_CORPUS;
  const indexPath = env.GROUNDCHECK_DB || '.groundcheck/demo/index.db';
  const capturePath = env.GROUNDCHECK_CAPTURE_DB || '.groundcheck/demo/captures.db';
  const settleMs = env.GROUNDCHECK_JUDGE_SETTLE_MS === undefined ? 2000 : Number(env.GROUNDCHECK_JUDGE_SETTLE_MS);

  const { chat, embedder, description } = modelsFromEnv(env);
  const { judge, description: judgeDescription } = liveJudgeFromEnv(env);
  const logger = createLogger({ level: env.GROUNDCHECK_LOG_LEVEL ?? 'info' });

  // The demo owns its index file: rebuilt when the embedder changed (e.g. a key was set since).
  const index = openIndex({ path: indexPath, embedder, rebuild: true });
  let firstIngest = true;
  const watcher = watchDirectory(index, corpus, {
    onChange: (changed) => {
      if (firstIngest) {
        firstIngest = false;
        return;
      }
      process.stdout.write(`groundcheck demo: ${corpus} changed, re-ingested:\n${formatIngestSummary(changed)}\n`);
    },
    onError: (error) => process.stderr.write(`groundcheck demo: re-ingest failed: ${errorMessage(error)} (still watching)\n`),
  });
  const summary = await watcher.ready;
  process.stdout.write(
    `groundcheck demo: index ${indexPath}: ${summary.added.length} added, ${summary.replaced.length} replaced, ` +
      `${summary.skipped.length} unchanged, ${summary.removed.length} removed (${summary.chunks} chunks); watching ${corpus} for changes\n`,
  );

  // OTLP export, when GROUNDCHECK_OTLP_ENDPOINT is set (the OpenTelemetry packages load only then).
  const metrics = createCaptureMetrics();
  const otlpOptions = otlpOptionsFromEnv(env);
  const otlp = otlpOptions ? await createOtlpExporter({ dataSourceId: 'harbourline-handbook', topK: DEFAULT_TOP_K, ...otlpOptions, metrics, logger }) : undefined;
  const demo = createApp({ index, chat, capture: { store: capturePath }, judge, worker: { settleMs }, logger, env, providerDescription: description, metrics, ...(otlp ? { otlp } : {}) });
  const server = demo.app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  process.stdout.write(
    [
      `groundcheck demo: open http://${shownHost}:${actualPort}`,
      `  provider:  ${description}`,
      `  judge:     ${judgeDescription} (live, in-process, settle ${settleMs} ms)`,
      `  dashboard: http://${shownHost}:${actualPort}/dashboard${env.GROUNDCHECK_DASHBOARD_TOKEN ? ' (token required)' : ' (open: set GROUNDCHECK_DASHBOARD_TOKEN to protect it)'}`,
      `  metrics:   http://${shownHost}:${actualPort}/metrics`,
      `  captures:  ${demo.store?.location ?? capturePath}`,
      `  otlp:      ${otlp ? `${otlp.endpoint} (${otlp.protocol}; evaluations as ${otlp.evaluations}; content ${otlp.captureContent ? 'on' : 'off'}; GenAI semconv ${otlp.semconvVersion})` : 'off (set GROUNDCHECK_OTLP_ENDPOINT to export)'}`,
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`groundcheck demo: ${signal}, shutting down\n`);
    // No new connections; requests in flight get up to SHUTDOWN_GRACE_MS to finish (their captures
    // are queued as their responses close), then the rest are cut (captured as aborted). Only then
    // is the capture queue drained (at most 5 s, what is left counted and logged as lost).
    const connectionsClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    void connectionsClosed
      .then(() => {
        clearTimeout(grace);
        // The last responses' 'close' listeners run on the next turn of the event loop.
        return new Promise((resolve) => setImmediate(resolve));
      })
      .then(() => Promise.all([demo.close().then(() => otlp?.shutdown()), watcher.close()]))
      .finally(() => {
        index.close();
        process.exit(0);
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

start(process.env).catch((error: unknown) => {
  process.stderr.write(`groundcheck demo: ${errorMessage(error)}\n`);
  process.exit(1);
});
