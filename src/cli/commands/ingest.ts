import { parseArgs } from 'node:util';
import { modelsFromEnv } from '../../providers/config.js';
import { formatIngestSummary, ingestDirectory } from '../../rag/ingest.js';
import { openIndex } from '../../rag/store.js';
import { dbPath, EXIT, integerFlag, UsageError, type Command } from '../io.js';

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'Index a folder of Markdown/text files (incremental: unchanged files are skipped)',
  usage: 'groundcheck ingest <folder> [--db <file>] [--rebuild] [--max-tokens <n>]',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        rebuild: { type: 'boolean', default: false },
        'max-tokens': { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'ingest needs a folder' : 'ingest takes one folder');
    const maxTokens = values['max-tokens'] === undefined ? undefined : integerFlag(values['max-tokens'], '--max-tokens', 20);
    const { embedder } = modelsFromEnv(io.env);
    const path = dbPath(values.db, io);
    const index = openIndex({ path, embedder, rebuild: values.rebuild });
    try {
      const summary = await ingestDirectory(index, positionals[0]!, maxTokens !== undefined ? { maxTokens } : {});
      io.stdout.write(`${formatIngestSummary(summary)}\nindex: ${path}\n`);
      return EXIT.ok;
    } finally {
      index.close();
    }
  },
};
