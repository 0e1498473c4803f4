import type { NextFunction, Request, Response } from 'express';
import { ApiCallError, InvalidInputError } from '../errors.js';
import type { RagPipeline } from '../rag/pipeline.js';
import { MAX_QUERY_LENGTH } from '../rag/retrieve.js';
import { toAnswerPayload } from '../rag/sources.js';
import type { RagMode } from '../contract/trace.js';
import { HttpError } from './errors.js';

export interface RagChatHandlerOptions {
  pipeline: RagPipeline;
  /** Longest message accepted, in characters (after trimming). [maxMessageLength=2000] */
  maxMessageLength?: number;
  /** Modes a client may ask for. [modes=['rag', 'norag']] */
  modes?: readonly RagMode[];
  /**
   * Answer a relevance-gate refusal with the chunks the gate withheld, as `withheldChunks` (never
   * as `sources`), so `groundcheck eval --target <url>` judges the refusal against them, as the
   * in-process eval does. `false` leaves them out of the response. [withheldChunks=true]
   */
  withheldChunks?: boolean;
}

/**
 * The common case as one handler: validate `req.body.message` (and `mode`), run the pipeline once,
 * answer `{answer, refused, sources, traceId}` (and, for a relevance-gate refusal,
 * `withheldChunks`), and record the trace on `req.rag` when
 * `captureRag` is mounted. Bad input reaches `next(err)` as an {@link HttpError} 400 with a stable
 * `type`: `message.missing`, `message.not_string`, `message.empty`, `message.too_long`, `mode.invalid`.
 * A model failure is a 502 `model.failed`.
 *
 * @example
 * app.post('/api/chat', express.json({ limit: '16kb' }), ragChatHandler({ pipeline }));
 */
export function ragChatHandler(options: RagChatHandlerOptions) {
  const { pipeline } = options;
  const maxLength = options.maxMessageLength ?? MAX_QUERY_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_QUERY_LENGTH) {
    throw new InvalidInputError(`ragChatHandler: option maxMessageLength ${String(maxLength)} is invalid: use a whole number from 1 to ${MAX_QUERY_LENGTH}`, {
      code: 'invalid_option',
    });
  }
  const modes = new Set<RagMode>(options.modes ?? ['rag', 'norag']);
  if (options.withheldChunks !== undefined && typeof options.withheldChunks !== 'boolean') {
    throw new InvalidInputError('ragChatHandler: option withheldChunks must be true or false', { code: 'invalid_option' });
  }
  const withheld = options.withheldChunks ?? true;

  return async function ragChat(req: Request, res: Response, next: NextFunction): Promise<void> {
    let message: string;
    let mode: RagMode;
    try {
      ({ message, mode } = parseChatBody(req.body, maxLength, modes));
    } catch (error) {
      next(error);
      return;
    }
    try {
      const trace = await pipeline.ask(message, { mode });
      req.rag?.record(trace);
      res.json(toAnswerPayload(trace, { withheld }));
    } catch (error) {
      if (error instanceof ApiCallError) {
        next(new HttpError(502, 'model.failed', 'the language model could not answer; try again later', { cause: error }));
        return;
      }
      next(error);
    }
  };
}

/** Validate a chat request body; throws {@link HttpError} 400 with a stable type. */
export function parseChatBody(body: unknown, maxLength: number = MAX_QUERY_LENGTH, modes: ReadonlySet<RagMode> = new Set(['rag', 'norag'])): { message: string; mode: RagMode } {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const raw = fields.message;
  if (raw === undefined || raw === null) throw new HttpError(400, 'message.missing', 'the request body needs a "message" field');
  if (typeof raw !== 'string') throw new HttpError(400, 'message.not_string', '"message" must be a string');
  const message = raw.trim();
  if (message === '') throw new HttpError(400, 'message.empty', '"message" is empty');
  if (message.length > maxLength) throw new HttpError(400, 'message.too_long', `"message" is ${message.length} characters; the limit is ${maxLength}`);
  const requested = fields.mode ?? 'rag';
  if (typeof requested !== 'string' || !modes.has(requested as RagMode)) {
    throw new HttpError(400, 'mode.invalid', `"mode" must be one of ${[...modes].join(', ')}`);
  }
  return { message, mode: requested as RagMode };
}
