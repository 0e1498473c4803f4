import { errorMessage } from '../../errors.js';
import { formatIngestSummary, type IngestOptions } from '../../rag/ingest.js';
import type { GroundcheckIndex } from '../../rag/store.js';
import { watchDirectory } from '../../rag/watch.js';
import { EXIT, type CliIO } from '../io.js';

/**
 * `groundcheck ingest <folder> --watch`: ingest, print what changed, then keep watching and print
 * each change until SIGINT or SIGTERM (or `signal`), then exit 0. A failed re-ingest is printed
 * and watching goes on; a failed first ingest is the command's error.
 */
export async function ingestAndWatch(index: GroundcheckIndex, folder: string, io: CliIO, options: IngestOptions & { debounceMs?: number; signal?: AbortSignal }): Promise<number> {
  const { signal, ...watchOptions } = options;
  let first = true;
  const watcher = watchDirectory(index, folder, {
    ...watchOptions,
    onChange: (summary) => {
      const stamp = new Date().toISOString().slice(11, 19);
      io.stdout.write(first ? `${formatIngestSummary(summary)}\nindex: ${index.path}\n` : `[${stamp}] ${formatIngestSummary(summary)}\n`);
      first = false;
    },
    onError: (error) => io.stderr.write(`groundcheck: re-ingest failed: ${errorMessage(error)} (still watching)\n`),
  });
  await watcher.ready;
  io.stdout.write(`watching ${folder} for changes (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    if (signal) signal.addEventListener('abort', stop, { once: true });
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await watcher.close();
  io.stdout.write('stopped watching\n');
  return EXIT.ok;
}
