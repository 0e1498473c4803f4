import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { indexSource } from '../../explain/source-index.js';
import { modelsFromEnv } from '../../providers/config.js';
import { formatIngestSummary } from '../../rag/ingest.js';
import { openIndex } from '../../rag/store.js';
import { EXIT, UsageError, type Command } from '../io.js';

/** The source index explainErrors() reads by default, relative to the indexed folder. */
export const DEFAULT_SOURCE_INDEX = '.groundcheck/source-index.db';

export const indexSourceCommand: Command = {
  name: 'index-source',
  summary: "Index an app's own source for explainErrors() (functions, classes, methods; incremental; secrets masked)",
  usage: 'groundcheck index-source [dir] [--db <file>] [--rebuild] [--exclude <folder>]...',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { db: { type: 'string' }, rebuild: { type: 'boolean', default: false }, exclude: { type: 'string', multiple: true, default: [] } },
    });
    if (positionals.length > 1) throw new UsageError('index-source takes one folder');
    const root = resolve(io.cwd, positionals[0] ?? '.');
    const path = resolve(root, values.db ?? DEFAULT_SOURCE_INDEX);
    const { embedder } = modelsFromEnv(io.env);
    const index = openIndex({ path, embedder, rebuild: values.rebuild });
    try {
      const summary = await indexSource(index, root, { exclude: values.exclude });
      io.stdout.write(`${formatIngestSummary(summary)}\nindex: ${path}\n`);
      return EXIT.ok;
    } finally {
      index.close();
    }
  },
};
