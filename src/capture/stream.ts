import type { Request, Response } from 'express';
import type { PlainTrace } from '../contract/plain-trace.js';
import { InvalidInputError } from '../errors.js';
import { MARK_FIRST_TOKEN } from './request-context.js';

/** What is captured with a streamed answer: the plain record without `answer` (the answer is what the client received). */
export type StreamedRecord = Omit<PlainTrace, 'answer'>;

export interface StreamRagAnswerOptions {
  /**
   * `sse`: `text/event-stream`; each piece of the answer is an event `delta` with data
   * `{"text": "…"}`, `end()` sends an event `done` with `{"traceId": "…"}` (`null` when nothing
   * was captured), `fail()` an event `error` with `{"error": {"type", "message"}}`.
   * `text`: chunked `text/plain`, the answer's text only. [format='sse']
   */
  format?: 'sse' | 'text';
  /**
   * What to capture with the answer (query, the chunks your model saw, model, usage…): the plain
   * record of `req.rag.record()` without `answer`. Fields known only at the end (usage) can be
   * added with `end(fields)`. It is checked when it is recorded, like any plain record.
   */
  record?: StreamedRecord;
}

/** The handle `streamRagAnswer` returns. */
export interface RagAnswerStream {
  /** Aborts when the client hangs up: pass it to your model call (`abortSignal`, the SDK's `signal`) so generation stops too. */
  readonly signal: AbortSignal;
  /** The answer text handed to the client so far. */
  readonly received: string;
  /** True once the client has hung up before `end()`. */
  readonly aborted: boolean;
  /** Send a piece of the answer. Returns `false`, sending nothing, once the client has gone or the stream has ended. */
  write(text: string): boolean;
  /** `sse` only: send another event that is not answer text (e.g. the sources, before the answer). Returns `false` as `write` does. */
  event(name: string, data: unknown): boolean;
  /**
   * Finish: record the capture (the record, `fields` merged over it, and the text the client
   * received as the answer) and end the response. Returns the trace id, or `null` when nothing
   * was captured (no `captureRag`, a rejected record, or the client had already gone: then the
   * capture was recorded, aborted, when it hung up).
   */
  end(fields?: Partial<StreamedRecord>): string | null;
  /** The answer could not be finished (the model failed): send an error (`sse`: an `error` event) and end, capturing nothing: there is no answer to judge. */
  fail(message?: string): void;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: a compressing proxy must not hold the events back to compress them.
  'Cache-Control': 'no-cache, no-transform',
  // nginx buffers proxied responses unless told not to.
  'X-Accel-Buffering': 'no',
};

/**
 * Stream an answer to the client (server-sent events or chunked text) and capture exactly what
 * the client received. With `captureRag` mounted, the capture stores the text written before the
 * connection closed as the answer, `aborted: true` when the client hung up first (such a capture
 * has its own verdict and is never judged: a partial answer is not a complete one), and the time
 * to the first piece of the answer (`firstTokenMs`). Text handed to the socket just before the
 * client hung up counts as received; the stream cannot know which bytes were still in flight.
 *
 * @example
 * app.post('/api/chat/stream', express.json(), async (req, res) => {
 *   const chunks = await myRetrieve(req.body.message);
 *   const answer = streamRagAnswer(req, res, { record: { query: req.body.message, chunks, model: 'gpt-4o-mini' } });
 *   for await (const part of streamChat(chat, { messages: myPrompt(req.body.message, chunks), abortSignal: answer.signal })) {
 *     if (part.type === 'text-delta') answer.write(part.text);
 *     else answer.end({ usage: part.result.usage });
 *   }
 * });
 */
export function streamRagAnswer(req: Request, res: Response, options: StreamRagAnswerOptions = {}): RagAnswerStream {
  const format = options.format ?? 'sse';
  if (format !== 'sse' && format !== 'text') {
    throw new InvalidInputError(`streamRagAnswer: option format ${JSON.stringify(format)} is invalid: use 'sse' or 'text'`, { code: 'invalid_option' });
  }
  const controller = new AbortController();
  let record: StreamedRecord | undefined = options.record;
  let received = '';
  let ended = false;
  let aborted = false;
  let recorded = false;

  const capture = (): string | null => {
    if (recorded || !req.rag || record === undefined) return null;
    recorded = true;
    return req.rag.record({ ...record, answer: received });
  };

  // After captureRag's own 'close' listener (added when the request came in): it has decided
  // whether the response finished, so a capture recorded here is marked aborted when it did not.
  res.on('close', () => {
    if (ended) return;
    aborted = true;
    controller.abort(new Error('the client closed the connection'));
    capture();
  });

  if (format === 'sse') res.set(SSE_HEADERS);
  else res.set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();

  const open = () => !ended && !aborted && !res.destroyed && !res.writableEnded;
  const send = (chunk: string) => {
    res.write(chunk);
    // compression's res.flush(): send now rather than when its buffer fills.
    (res as Response & { flush?: () => void }).flush?.();
  };
  const sendEvent = (name: string, data: unknown) => send(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get aborted() {
      return aborted;
    },
    write(text) {
      if (!open() || typeof text !== 'string') return false;
      if (text === '') return true;
      if (received === '') (req.rag as { [MARK_FIRST_TOKEN]?: () => void } | undefined)?.[MARK_FIRST_TOKEN]?.();
      received += text;
      if (format === 'sse') sendEvent('delta', { text });
      else send(text);
      return true;
    },
    event(name, data) {
      if (format !== 'sse') throw new InvalidInputError("streamRagAnswer: event() needs format 'sse'", { code: 'invalid_option' });
      if (!/^[\w.-]+$/.test(name)) throw new InvalidInputError(`streamRagAnswer: event name ${JSON.stringify(name)} is invalid: use letters, digits, '.', '-' or '_'`, { code: 'invalid_option' });
      if (!open()) return false;
      sendEvent(name, data);
      return true;
    },
    end(fields) {
      if (!open()) return null;
      if (fields) record = { ...(record as StreamedRecord), ...fields };
      const traceId = capture();
      ended = true;
      if (format === 'sse') sendEvent('done', { traceId });
      res.end();
      return traceId;
    },
    fail(message = 'the answer could not be finished') {
      if (!open()) return;
      ended = true;
      recorded = true;
      if (format === 'sse') sendEvent('error', { error: { type: 'model.failed', message } });
      res.end();
    },
  };
}
