/**
 * A small RAG app that is NOT built with groundcheck, for the eval-target tests: its own
 * knowledge base, its own keyword retrieval, its own "model" (a deterministic sentence picker
 * with one planted bug), its own citation format (`[KB-101]`) and its own JSON shapes. It imports
 * nothing from groundcheck, only Express. Every answer it sends is recorded, so a test can compare
 * what the judges saw with exactly what the app returned.
 */
import express, { type Express } from 'express';

export interface ShopChunk {
  id: string;
  text: string;
  title: string;
  updated: string;
}

export const SHOP_KNOWLEDGE_BASE: ShopChunk[] = [
  { id: 'kb-101', title: 'Returns', updated: '2026-02-01', text: 'Refunds are issued within 14 days of the returned item reaching our warehouse [KB-101]. Items must be unused and in their original packaging.' },
  { id: 'kb-102', title: 'Returns', updated: '2026-02-01', text: 'Return shipping is free for orders over £50 [KB-102]. Below £50 a £4.95 return label is deducted from the refund.' },
  { id: 'kb-201', title: 'Delivery', updated: '2025-11-20', text: 'Standard delivery takes 3 to 5 working days [KB-201]. Express delivery arrives the next working day if ordered before 2pm.' },
  { id: 'kb-202', title: 'Delivery', updated: '2025-11-20', text: 'We deliver to the UK, Ireland and France [KB-202]. Orders to Ireland and France take 2 extra working days.' },
  { id: 'kb-301', title: 'Warranty', updated: '2026-01-05', text: 'Electronics carry a 2-year warranty [KB-301]. The warranty does not cover accidental damage.' },
  { id: 'kb-401', title: 'Gift cards', updated: '2025-09-30', text: 'Gift cards are valid for 12 months from purchase [KB-401]. They cannot be exchanged for cash.' },
];

export const SHOP_REFUSAL = "I don't know: our help centre does not cover that.";

export interface ShopAnswer {
  answer: string;
  chunks: ShopChunk[];
  scores: number[];
}

const STOPWORDS = new Set(['the', 'a', 'an', 'is', 'are', 'do', 'does', 'i', 'my', 'to', 'of', 'for', 'in', 'on', 'how', 'what', 'can', 'you', 'we', 'long', 'it', 'if', 'be', 'there', 'your', 'with', 'much', 'many', 'take']);

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9£]+/g) ?? []).filter((word) => !STOPWORDS.has(word)).map((word) => word.replace(/s$/, ''));
}

/** Keyword retrieval: chunks sharing at least two distinct question terms (one for a one-term question), best first, at most 2. */
export function shopRetrieve(question: string): { chunk: ShopChunk; score: number }[] {
  const wanted = new Set(terms(question));
  return SHOP_KNOWLEDGE_BASE.map((chunk) => {
    const have = new Set(terms(`${chunk.title} ${chunk.text}`));
    const shared = [...wanted].filter((word) => have.has(word)).length;
    return { chunk, shared, score: wanted.size === 0 ? 0 : shared / wanted.size };
  })
    .filter((entry) => entry.shared > 0 && entry.shared >= Math.min(2, wanted.size))
    .sort((a, b) => b.score - a.score)
    .slice(0, 2)
    .map(({ chunk, score }) => ({ chunk, score }));
}

/**
 * The app's answer: the first sentence of the best chunk, keeping its citation. Without
 * retrieval it guesses from "memory". The planted bug: warranty answers say 3 years, not 2.
 */
export function shopAnswer(question: string, useRetrieval: boolean): ShopAnswer {
  if (!useRetrieval) return { answer: 'Usually within 30 days, and returns are always free.', chunks: [], scores: [] };
  const retrieved = shopRetrieve(question);
  if (retrieved.length === 0) return { answer: SHOP_REFUSAL, chunks: [], scores: [] };
  const first = retrieved[0]!.chunk.text.split(/(?<=\.)\s+/)[0]!;
  const answer = retrieved[0]!.chunk.id === 'kb-301' ? first.replace('2-year', '3-year') : first;
  return { answer, chunks: retrieved.map((entry) => entry.chunk), scores: retrieved.map((entry) => Number(entry.score.toFixed(3))) };
}

export interface ForeignAppRecord {
  route: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** Exactly what the app sent back. */
  response: unknown;
}

/**
 * The app. Routes:
 * - `POST /api/chat` `{ message, mode: 'rag' | 'norag' }` → `{ answer, chunks: [{ id, text, title, updated, score }] }` (groundcheck's default target shape);
 * - `POST /v2/ask` `{ query, options: { retrieval: boolean } }` with header `x-api-key` →
 *   `{ data: { reply, context: [{ docId, content, meta: { heading, date }, similarity }] } }`;
 * - `POST /legacy` → `{ answer, sources: [{ chunkId, text }] }`;
 * - `POST /flaky` → 503 on the first request for each question, then like `/api/chat`;
 * - `POST /broken` → `{ reply: … }` (no `answer`).
 */
export function createForeignApp(options: { apiKey?: string } = {}): { app: Express; records: ForeignAppRecord[] } {
  const records: ForeignAppRecord[] = [];
  const app = express();
  app.use(express.json());
  const send = (route: string, req: express.Request, res: express.Response, response: unknown) => {
    records.push({ route, body: req.body, headers: req.headers, response: structuredClone(response) });
    res.json(response);
  };
  const defaultShape = (result: ShopAnswer) => ({
    answer: result.answer,
    chunks: result.chunks.map((chunk, index) => ({ id: chunk.id, text: chunk.text, title: chunk.title, updated: chunk.updated, score: result.scores[index] })),
  });

  app.post('/api/chat', (req, res) => {
    const { message, mode } = req.body as { message?: unknown; mode?: unknown };
    if (typeof message !== 'string' || (mode !== 'rag' && mode !== 'norag')) return void res.status(400).json({ error: 'message and mode required' });
    send('/api/chat', req, res, defaultShape(shopAnswer(message, mode === 'rag')));
  });

  app.post('/v2/ask', (req, res) => {
    if (options.apiKey && req.get('x-api-key') !== options.apiKey) return void res.status(401).json({ error: 'bad key' });
    const { query, options: askOptions } = req.body as { query?: unknown; options?: { retrieval?: unknown } };
    if (typeof query !== 'string' || typeof askOptions?.retrieval !== 'boolean') return void res.status(400).json({ error: 'query and options.retrieval required' });
    const result = shopAnswer(query, askOptions.retrieval);
    send('/v2/ask', req, res, {
      data: {
        reply: result.answer,
        context: result.chunks.map((chunk, index) => ({ docId: chunk.id, content: chunk.text, meta: { heading: chunk.title, date: chunk.updated }, similarity: result.scores[index] })),
      },
      model: 'shop-bot-1',
    });
  });

  app.post('/legacy', (req, res) => {
    const result = shopAnswer(String((req.body as { message?: unknown }).message), (req.body as { mode?: unknown }).mode !== 'norag');
    send('/legacy', req, res, { answer: result.answer, sources: result.chunks.map((chunk) => ({ chunkId: chunk.id, text: chunk.text })) });
  });

  const seen = new Set<string>();
  app.post('/flaky', (req, res) => {
    const { message, mode } = req.body as { message: string; mode: string };
    const key = `${message}|${mode}`;
    if (!seen.has(key)) {
      seen.add(key);
      records.push({ route: '/flaky', body: req.body, headers: req.headers, response: 503 });
      return void res.status(503).set('retry-after', '0').json({ error: 'warming up' });
    }
    send('/flaky', req, res, defaultShape(shopAnswer(message, mode === 'rag')));
  });

  app.post('/broken', (req, res) => send('/broken', req, res, { reply: 'no answer field here' }));
  return { app, records };
}

/** Serve the app on 127.0.0.1, port 0; closed after the test. */
export async function serveForeignApp(options: { apiKey?: string; onClose: (close: () => void) => void }): Promise<{ url: string; records: ForeignAppRecord[] }> {
  const { app, records } = createForeignApp(options.apiKey !== undefined ? { apiKey: options.apiKey } : {});
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  options.onClose(() => server.close());
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, records };
}
