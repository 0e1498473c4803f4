import express from 'express';
import { faithfulnessJudgeReply } from '../testing/judge-replies.js';
import { pino, type Logger } from 'pino';
import type { Counter, Gauge } from 'prom-client';
import type { RagPipeline } from '../rag/pipeline.js';
import { HttpError } from '../capture/errors.js';
import { captureRag, type CaptureRagOptions } from '../capture/middleware.js';
import { captureFromTrace, type CaptureHttpFacts } from '../capture/to-capture.js';
import type { Capture } from '../capture/types.js';
import { traceFromPlain, type PlainTrace } from '../contract/plain-trace.js';
import { ragChatHandler } from '../capture/route.js';
import { chatReply, type MockServerReply, type RecordedRequest } from '../testing/openai-server.js';

/** A pino logger whose lines land in `lines` (parsed), for assertions. */
export function memoryLogger(): { logger: Logger; lines: Record<string, unknown>[]; raw: string[] } {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, raw };
}

/** Current value of a counter or gauge series. */
export async function metricValue(metric: Counter<string> | Gauge<string>, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await metric.get();
  const match = values.find((value) => Object.entries(labels).every(([key, expected]) => value.labels[key] === expected));
  return match?.value ?? 0;
}

/** A minimal app: captureRag + the chat route helper + a JSON error handler. */
export function chatApp(pipeline: RagPipeline, options: CaptureRagOptions) {
  const capture = captureRag(options);
  const app = express();
  app.use(capture);
  app.post('/api/chat', express.json(), ragChatHandler({ pipeline }));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = error instanceof HttpError ? error.status : 500;
    res.status(status).json({ error: { type: error instanceof HttpError ? error.type : 'internal', message: (error as Error).message } });
  });
  return { app, capture };
}

/** Whether a request to the mock OpenAI server comes from the faithfulness judge (its system prompt). */
export function isJudgeRequest(request: RecordedRequest): boolean {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  return messages.some((message) => message.role === 'system' && message.content.includes('strict fact-checker'));
}

/** A well-formed LLM-judge reply: one claim, verified against the first evidence passage with a real quote (absent when there is none). */
export function judgeReply(request: RecordedRequest, delayMs = 0): MockServerReply {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  const user = messages.find((message) => message.role === 'user')?.content ?? '';
  const reply = chatReply(faithfulnessJudgeReply(user), { promptTokens: 300, completionTokens: 40 });
  return delayMs > 0 ? { ...reply, delayMs } : reply;
}

/** The capture of an app's plain record, with fixed id, time and HTTP facts (override any of them). */
export function plainCapture(record: PlainTrace, traceId: string, http: Partial<CaptureHttpFacts> = {}): Capture {
  const result = traceFromPlain(record, { generateId: () => traceId, now: () => new Date('2026-03-01T10:00:00.000Z') });
  if (!result.ok) throw new Error(result.error);
  return captureFromTrace(result.trace, { requestId: `r-${traceId}`, capturedAt: '2026-03-01T10:00:00.000Z', route: '/ask', method: 'POST', status: 200, latencyMs: 3, ...http });
}
