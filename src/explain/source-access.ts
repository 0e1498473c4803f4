import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { EmbeddingModel } from '../providers/spec.js';
import { formatIngestSummary } from '../rag/ingest.js';
import { openIndex, type GroundcheckIndex } from '../rag/store.js';
import { indexSource, type IndexSourceOptions } from './source-index.js';

/**
 * The middleware's handle on the source index: opened on the first error (never before), built
 * or refreshed incrementally then, and again at most every `refreshMs` so edits made while the
 * app runs are seen. Concurrent errors share one refresh.
 */
export interface SourceAccess {
  /** The index, refreshed when due. */
  index(): Promise<GroundcheckIndex>;
  /** Whether the index file has been opened. */
  readonly opened: boolean;
  close(): void;
}

export interface SourceAccessOptions extends Pick<IndexSourceOptions, 'exclude'> {
  appRoot: string;
  indexPath: string;
  embedder: EmbeddingModel;
  /** `lazy`: build and refresh it here; `never`: use what `groundcheck index-source` built. */
  build: 'lazy' | 'never';
  refreshMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  now?: () => number;
}

export function createSourceAccess(options: SourceAccessOptions): SourceAccess {
  const now = options.now ?? Date.now;
  let index: GroundcheckIndex | null = null;
  let refreshedAt = -Infinity;
  let refreshing: Promise<void> | null = null;

  async function refresh(opened: GroundcheckIndex): Promise<void> {
    const summary = await indexSource(opened, options.appRoot, options.exclude ? { exclude: options.exclude } : {});
    refreshedAt = now();
    if (summary.added.length + summary.replaced.length + summary.removed.length > 0) {
      options.logger.info({ event: 'explain.source_index', path: options.indexPath, documents: summary.documents, chunks: summary.chunks }, formatIngestSummary(summary).split('\n').pop()!);
    }
  }

  return {
    get opened() {
      return index !== null;
    },
    async index() {
      if (index === null) {
        if (options.build === 'never' && !existsSync(options.indexPath)) {
          throw new Error(`no source index at ${options.indexPath}: run \`groundcheck index-source ${options.appRoot} --db ${options.indexPath}\``);
        }
        // Derived data owned by the middleware: rebuilt if the embedder changed.
        index = openIndex({ path: options.indexPath, embedder: options.embedder, create: options.build === 'lazy', rebuild: options.build === 'lazy' });
      }
      if (options.build === 'lazy' && now() - refreshedAt >= options.refreshMs) {
        refreshing ??= refresh(index).finally(() => {
          refreshing = null;
        });
        await refreshing;
      }
      return index;
    },
    close() {
      index?.close();
      index = null;
    },
  };
}
