import { parseArgs } from 'node:util';
import { modelsFromEnv } from '../../providers/config.js';
import { createRagPipeline } from '../../rag/pipeline.js';
import { toAnswerPayload } from '../../rag/sources.js';
import { openIndex } from '../../rag/store.js';
import { dbPath, EXIT, integerFlag, UsageError, type Command } from '../io.js';

export const askCommand: Command = {
  name: 'ask',
  summary: 'Answer a question from the index, with its sources',
  usage: 'groundcheck ask "<question>" [--mode rag|norag] [--json] [--db <file>] [--top-k <n>]',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        mode: { type: 'string', default: 'rag' },
        json: { type: 'boolean', default: false },
        'top-k': { type: 'string' },
      },
    });
    if (positionals.length === 0) throw new UsageError('ask needs a question');
    if (positionals.length > 1) throw new UsageError('put the question in quotes: groundcheck ask "How long is parental leave?"');
    const mode = values.mode;
    if (mode !== 'rag' && mode !== 'norag') throw new UsageError(`--mode must be rag or norag, not ${mode}`);
    const topK = values['top-k'] === undefined ? undefined : integerFlag(values['top-k'], '--top-k', 1, 100);

    const { chat, embedder } = modelsFromEnv(io.env);
    const index = openIndex({ path: dbPath(values.db, io), embedder, create: false });
    try {
      const pipeline = createRagPipeline({ index, chat, retrieval: topK !== undefined ? { topK } : {} });
      const trace = await pipeline.ask(positionals[0]!, { mode });
      const payload = toAnswerPayload(trace);
      if (values.json) {
        // Why it refused, as the human output says: the gate (with the half that fired and the words
        // the corpus lacks) or the model, so a refusal can be told apart without reading the trace.
        // and the chunks it withheld (ids and similarity: what the judge grades the refusal against).
        const gate = trace.retrieval?.gated
          ? {
              gate: {
                reason: trace.retrieval.gateReason ?? null,
                uncoveredTerms: trace.retrieval.termCoverage?.uncoveredTerms ?? [],
                withheld: (trace.withheldChunks ?? []).map((chunk) => ({ chunkId: chunk.chunkId, score: chunk.score })),
              },
            }
          : {};
        io.stdout.write(`${JSON.stringify({ ...payload, refusalReason: trace.refusalReason, ...gate })}\n`);
        return EXIT.ok;
      }
      const lines = [payload.answer, '', `refused: ${payload.refused ? `yes (${trace.refusalReason === 'gate' ? 'nothing relevant in the index' : 'the model declined'})` : 'no'}`];
      if (payload.sources.length > 0) {
        lines.push('sources:');
        payload.sources.forEach((source, position) => {
          const where = source.section ? `${source.title} › ${source.section}` : source.title;
          lines.push(`  ${position + 1}. ${where} (updated ${source.updated ?? 'unknown'})  ${source.chunkId}  similarity ${source.score.toFixed(3)}`);
          if (source.url !== undefined) lines.push(`     ${source.url}`);
        });
      }
      lines.push(`trace: ${payload.traceId}`);
      io.stdout.write(`${lines.join('\n')}\n`);
      return EXIT.ok;
    } finally {
      index.close();
    }
  },
};
