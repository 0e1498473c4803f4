import { parseArgs } from 'node:util';
import { findDrift } from '../../capture/drift.js';
import { connectCaptureStore } from '../../capture/store.js';
import { modelsFromEnv } from '../../providers/config.js';
import { openIndex } from '../../rag/store.js';
import { captureDbPath, dbPath, EXIT, type Command } from '../io.js';

export const driftCommand: Command = {
  name: 'drift',
  summary: 'List stored judgments whose evidence has changed or vanished from the index since',
  usage: 'groundcheck drift [--db <captures.db>|postgres://…] [--index <index.db>] [--json] [--check]',
  async run(args, io) {
    const { values } = parseArgs({
      args,
      allowPositionals: false,
      options: {
        db: { type: 'string' },
        index: { type: 'string' },
        json: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
      },
    });
    const capturePath = captureDbPath(values.db, io);
    const indexPath = dbPath(values.index, io);
    const store = await connectCaptureStore({ path: capturePath, create: false });
    try {
      const { embedder } = modelsFromEnv(io.env);
      const index = openIndex({ path: indexPath, embedder, create: false });
      let report;
      try {
        report = await findDrift(store, index.chunkHashes());
      } finally {
        index.close();
      }
      if (values.json) {
        io.stdout.write(`${JSON.stringify(report)}\n`);
      } else {
        const lines = [
          `${report.drifted.length} of ${report.judgmentsChecked} judgment(s) refer to evidence that changed or vanished since they were made` +
            ` (captures: ${store.location}, index: ${indexPath})`,
        ];
        for (const judgment of report.drifted) {
          const verdict = judgment.status === 'error' ? 'judge error' : judgment.hallucinated ? 'hallucinated' : judgment.faithful ? 'faithful' : 'no verdict';
          lines.push(`  ${judgment.traceId}  ${judgment.capturedAt}  ${judgment.judgeVersion}  ${verdict}`);
          for (const chunk of judgment.chunks) {
            lines.push(`      ${chunk.change.padEnd(9)}${chunk.chunkId}${chunk.change === 'changed' ? `  (${chunk.capturedHash.slice(0, 12)} → ${chunk.currentHash!.slice(0, 12)})` : ''}`);
          }
        }
        io.stdout.write(`${lines.join('\n')}\n`);
      }
      return values.check && report.drifted.length > 0 ? EXIT.failure : EXIT.ok;
    } finally {
      await store.close();
    }
  },
};
