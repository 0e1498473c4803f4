import { parseArgs } from 'node:util';
import { formatSiteIngestSummary, ingestSite, type SiteIngestOptions } from '../../crawl/ingest-site.js';
import { modelsFromEnv } from '../../providers/config.js';
import { formatIngestSummary, ingestDirectory } from '../../rag/ingest.js';
import { openIndex } from '../../rag/store.js';
import { dbPath, EXIT, integerFlag, UsageError, type Command } from '../io.js';
import { ingestAndWatch } from './ingest-watch.js';

/** `scheme://…`: a URL to crawl rather than a folder (a folder name never looks like this). */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const CRAWL_FLAGS = ['max-pages', 'max-depth', 'delay-ms'] as const;

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'Index a folder of Markdown, text or HTML files, or crawl a site (incremental: unchanged files and pages are skipped)',
  usage:
    'groundcheck ingest <folder> [--watch] [--db <file>] [--rebuild] [--max-tokens <n>]\n' +
    '  groundcheck ingest <url> [--max-pages 50] [--max-depth <n>] [--delay-ms 1000] [--db <file>] [--rebuild] [--max-tokens <n>]',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        rebuild: { type: 'boolean', default: false },
        'max-tokens': { type: 'string' },
        'max-pages': { type: 'string' },
        'max-depth': { type: 'string' },
        'delay-ms': { type: 'string' },
        watch: { type: 'boolean', default: false },
      },
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'ingest needs a folder or a URL' : 'ingest takes one folder or one URL');
    const target = positionals[0]!;
    const isUrl = URL_LIKE.test(target);
    const misplaced = CRAWL_FLAGS.find((flag) => values[flag] !== undefined);
    if (!isUrl && misplaced) throw new UsageError(`--${misplaced} is for crawling a URL; ${target} is a folder`);
    if (isUrl && values.watch) throw new UsageError('--watch watches a folder; to refresh a site, run the crawl again');
    const maxTokens = values['max-tokens'] === undefined ? undefined : integerFlag(values['max-tokens'], '--max-tokens', 20);
    const crawl: SiteIngestOptions = {
      ...(values['max-pages'] !== undefined ? { maxPages: integerFlag(values['max-pages'], '--max-pages', 1, 100_000) } : {}),
      ...(values['max-depth'] !== undefined ? { maxDepth: integerFlag(values['max-depth'], '--max-depth', 0, 1000) } : {}),
      ...(values['delay-ms'] !== undefined ? { delayMs: integerFlag(values['delay-ms'], '--delay-ms', 0, 600_000) } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
    };
    const { embedder } = modelsFromEnv(io.env);
    const path = dbPath(values.db, io);
    const index = openIndex({ path, embedder, rebuild: values.rebuild });
    try {
      if (isUrl) {
        const summary = await ingestSite(index, target, {
          ...crawl,
          onPage: (page) => io.stderr.write(`[${page.visited}/${page.maxPages}] ${page.action.padEnd(9)} ${page.url}${page.reason ? ` (${page.reason})` : ''}\n`),
        });
        io.stdout.write(`${formatSiteIngestSummary(summary)}\nindex: ${path}\n`);
        return EXIT.ok;
      }
      if (values.watch) return await ingestAndWatch(index, target, io, maxTokens !== undefined ? { maxTokens } : {});
      const summary = await ingestDirectory(index, target, maxTokens !== undefined ? { maxTokens } : {});
      io.stdout.write(`${formatIngestSummary(summary)}\nindex: ${path}\n`);
      return EXIT.ok;
    } finally {
      index.close();
    }
  },
};
