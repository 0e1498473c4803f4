import { outcomeRow } from '../../contract/outcome.js';
import { judgedChunks } from '../../contract/trace.js';
import type { Capture, StoredJudgment } from '../types.js';
import { verdictOf } from '../verdict.js';
import { otelSpanIdOf, otelTraceIdOf } from './ids.js';
import * as semconv from './semconv.js';

/**
 * What the OTLP export sends, as plain data: a capture becomes a trace of spans, a judgment an
 * evaluation result. Pure (no OpenTelemetry import), so what is sent is tested apart from how it
 * is sent, and the benchmark's OpenTelemetry SDK baseline records exactly these spans.
 */

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** The fields of a chunk a retrieval span's documents are made from. */
type SpanChunk = Pick<Capture['chunks'][number], 'chunkId' | 'score' | 'rank' | 'hash' | 'text'>;

/** The fields of a capture the spans are made from (a `Capture` has them all). */
export type SpanSource = Pick<
  Capture,
  | 'traceId'
  | 'requestId'
  | 'capturedAt'
  | 'route'
  | 'method'
  | 'status'
  | 'latencyMs'
  | 'query'
  | 'mode'
  | 'answer'
  | 'refused'
  | 'refusalReason'
  | 'promptVersion'
  | 'models'
  | 'usage'
  | 'costUsd'
  | 'timings'
  | 'truncated'
  | 'aborted'
  | 'firstTokenMs'
> & {
  chunks: readonly SpanChunk[];
  /** A gate refusal's withheld chunks: the retrieval span's documents then (with `groundcheck.gated`), as the judge read them. */
  withheldChunks?: readonly SpanChunk[];
  /**
   * Why the model stopped (`stop`, `length`…), sent as `gen_ai.response.finish_reasons` when
   * known. A trace has it; a `Capture` does not (the capture stores do not keep it yet), so the
   * captures `captureRag` exports leave it out.
   */
  finishReason?: string | null;
};

export interface SpanSettings {
  /** Send the question, the answer and the chunk texts. */
  captureContent: boolean;
  /** `gen_ai.data_source.id` of the retrieval span. */
  dataSourceId: string;
  /** `gen_ai.request.top_k` of the retrieval span; `null` leaves it out (the capture does not record the k asked for). */
  topK: number | null;
}

export type SpanRole = 'request' | 'retrieval' | 'chat';

/** What one span says: its role, name, kind, times in epoch milliseconds and attributes; `request` is the parent of the others. */
export interface SpanContent {
  role: SpanRole;
  name: string;
  kind: 'internal' | 'client';
  startMs: number;
  endMs: number;
  attributes: Attributes;
}

/** One span to record: its content and its ids (see ids.ts). */
export interface SpanPlan extends SpanContent {
  spanId: string;
  parentSpanId: string | null;
}

export interface TracePlan {
  traceId: string;
  spans: SpanPlan[];
}

/**
 * The trace of one capture: a `request` span (the answered question), a `retrieval` span in
 * `rag` mode, and a `chat` span when the model was called (not when the relevance gate refused
 * first). Durations are the trace's own (`timings`); the spans are placed from the request's start,
 * since a capture keeps how long each step took, not when it began.
 */
export function tracePlanOf(source: SpanSource, settings: SpanSettings): TracePlan {
  const traceId = otelTraceIdOf(source.traceId);
  const requestSpanId = otelSpanIdOf(traceId, 'request');
  return {
    traceId,
    spans: spanContentsOf(source, settings).map((content) =>
      content.role === 'request' ? { ...content, spanId: requestSpanId, parentSpanId: null } : { ...content, spanId: otelSpanIdOf(traceId, content.role), parentSpanId: requestSpanId },
    ),
  };
}

/** The spans of a capture without ids (the benchmark's OpenTelemetry SDK baseline lets the SDK pick its own). */
export function spanContentsOf(source: SpanSource, settings: SpanSettings): SpanContent[] {
  const endMs = Date.parse(source.capturedAt);
  const startMs = endMs - Math.max(0, source.latencyMs);
  const spans: SpanContent[] = [
    {
      role: 'request',
      name: `rag ${source.route}`,
      kind: 'internal',
      startMs,
      endMs,
      attributes: compact({
        'groundcheck.trace_id': source.traceId,
        'groundcheck.request_id': source.requestId,
        'groundcheck.mode': source.mode,
        'groundcheck.refused': source.refused,
        'groundcheck.refusal_reason': source.refusalReason,
        'groundcheck.prompt_version': source.promptVersion,
        'groundcheck.truncated': source.truncated,
        'groundcheck.aborted': source.aborted,
        'groundcheck.first_token_ms': source.firstTokenMs,
        'groundcheck.cost_usd': source.costUsd,
        [semconv.ATTR_HTTP_ROUTE]: source.route,
        [semconv.ATTR_HTTP_REQUEST_METHOD]: source.method,
        [semconv.ATTR_HTTP_RESPONSE_STATUS_CODE]: source.status,
      }),
    },
  ];
  const retrievalMs = Math.max(0, source.timings.retrievalMs);
  if (source.mode === 'rag') {
    const [embeddingProvider, embeddingModel] = splitModel(source.models.embedding);
    spans.push({
      role: 'retrieval',
      name: `${semconv.GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL} ${settings.dataSourceId}`,
      kind: 'client',
      startMs,
      endMs: startMs + retrievalMs,
      attributes: compact({
        [semconv.ATTR_GEN_AI_OPERATION_NAME]: semconv.GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL,
        [semconv.ATTR_GEN_AI_DATA_SOURCE_ID]: settings.dataSourceId,
        [semconv.ATTR_GEN_AI_REQUEST_TOP_K]: settings.topK,
        [semconv.ATTR_GEN_AI_REQUEST_MODEL]: embeddingModel,
        'groundcheck.embedding.provider': embeddingProvider,
        'groundcheck.gated': source.refusalReason === 'gate',
        // What retrieval returned: for a gate refusal, the chunks the gate withheld (never in a prompt).
        [semconv.ATTR_GEN_AI_RETRIEVAL_DOCUMENTS]: documentsJson(judgedChunks(source), settings.captureContent),
        [semconv.ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT]: settings.captureContent ? source.query : null,
      }),
    });
  }
  if (modelWasCalled(source)) {
    const [provider, model] = splitModel(source.models.chat);
    const finishReason = source.finishReason ?? null;
    spans.push({
      role: 'chat',
      name: `${semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT} ${model ?? source.models.chat}`,
      // The spec's CLIENT, except for the offline model, which runs in this process (INTERNAL).
      kind: provider === 'local' ? 'internal' : 'client',
      startMs: startMs + (source.mode === 'rag' ? retrievalMs : 0),
      endMs: startMs + (source.mode === 'rag' ? retrievalMs : 0) + Math.max(0, source.timings.generationMs),
      attributes: compact({
        [semconv.ATTR_GEN_AI_OPERATION_NAME]: semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT,
        [semconv.ATTR_GEN_AI_PROVIDER_NAME]: providerName(provider),
        [semconv.ATTR_GEN_AI_REQUEST_MODEL]: model,
        [semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: source.usage.inputTokens,
        [semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: source.usage.outputTokens,
        [semconv.ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: finishReason === null ? null : [finishReason],
        [semconv.ATTR_GEN_AI_OUTPUT_MESSAGES]: settings.captureContent
          ? JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: source.answer }], ...(finishReason === null ? {} : { finish_reason: finishReason }) }])
          : null,
      }),
    });
  }
  return spans;
}

/** The `gen_ai.evaluation.name` of groundcheck's judgments: the outcome of the contract's one outcome table. */
export const EVALUATION_NAME = 'groundcheck.outcome';

/** One judgment as a `gen_ai.evaluation.result`, linked to the span it evaluates. */
export interface EvaluationPlan {
  traceId: string;
  /** The evaluated span: the chat span, or the request span when the model was not called. */
  parentSpanId: string;
  /** The id of the evaluation span, when evaluations are sent as spans (one per capture and judge version). */
  spanId: string;
  /** When the judge started and finished, epoch milliseconds. */
  startMs: number;
  timeMs: number;
  attributes: Attributes;
}

/**
 * The evaluation result of a stored judgment. The label is the outcome from the contract's one
 * outcome table; the score is that row's `pass` as 1 or 0, left out when the row is neither (an
 * undetermined answer). A judge error is no score at all: it carries `error.type` (the table's
 * judge-error outcome) and the judge's message in `error.message`, and no label or value.
 */
export function evaluationPlanOf(capture: Pick<Capture, 'traceId' | 'refusalReason' | 'mode' | 'truncated' | 'aborted'>, judgment: StoredJudgment): EvaluationPlan {
  const traceId = otelTraceIdOf(capture.traceId);
  const timeMs = Date.parse(judgment.judgedAt);
  const failed = judgment.status === 'error';
  const row = outcomeRow(failed ? null : judgment.flags);
  const common = {
    [semconv.ATTR_GEN_AI_EVALUATION_NAME]: EVALUATION_NAME,
    'groundcheck.trace_id': capture.traceId,
    'groundcheck.judge.version': judgment.judgeVersion,
    'groundcheck.judge.kind': judgment.judge.kind,
    'groundcheck.judge.model': judgment.judge.model,
    'groundcheck.judge.prompt_version': judgment.judge.promptVersion,
    'groundcheck.judge.attempts': judgment.attempts,
  };
  const attributes = failed
    ? compact({ ...common, [semconv.ATTR_ERROR_TYPE]: row.outcome, [semconv.ATTR_ERROR_MESSAGE]: judgment.error })
    : compact({
        ...common,
        [semconv.ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: row.outcome,
        [semconv.ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: row.pass === null ? null : row.pass ? 1 : 0,
        [semconv.ATTR_GEN_AI_EVALUATION_EXPLANATION]: verdictOf(capture, judgment, true).text,
        'groundcheck.claims.verified': judgment.counts.verified,
        'groundcheck.claims.contradicted': judgment.counts.contradicted,
        'groundcheck.claims.absent': judgment.counts.absent,
      });
  return {
    traceId,
    parentSpanId: otelSpanIdOf(traceId, modelWasCalled(capture) ? 'chat' : 'request'),
    spanId: otelSpanIdOf(traceId, `evaluation:${judgment.judgeVersion}`),
    startMs: timeMs - Math.max(0, judgment.durationMs),
    timeMs,
    attributes,
  };
}

/** A chat span exists when the model answered: not when the relevance gate refused before calling it. */
function modelWasCalled(capture: Pick<Capture, 'refusalReason'>): boolean {
  return capture.refusalReason !== 'gate';
}

/** `openai:gpt-4o-mini` → [`openai`, `gpt-4o-mini`]; a model id without a provider → [null, id]. */
function splitModel(model: string | null): [string | null, string | null] {
  if (model === null || model === '') return [null, null];
  const colon = model.indexOf(':');
  return colon === -1 ? [null, model] : [model.slice(0, colon), model.slice(colon + 1)];
}

/** `gen_ai.provider.name`: the spec's `openai` for the OpenAI-compatible client (whatever server it talks to), `groundcheck.<name>` for the others. */
function providerName(provider: string | null): string | null {
  if (provider === null) return null;
  return provider === 'openai' ? semconv.GEN_AI_PROVIDER_NAME_VALUE_OPENAI : `groundcheck.${provider}`;
}

/**
 * `gen_ai.retrieval.documents` as a JSON string (OpenTelemetry JS attributes cannot hold objects;
 * the spec allows the string form on spans): id and score as the schema asks, plus rank and
 * content hash; the text only with content capture on.
 */
function documentsJson(chunks: SpanSource['chunks'], withContent: boolean): string {
  return JSON.stringify(
    chunks.map((chunk) => (withContent ? { id: chunk.chunkId, score: chunk.score, rank: chunk.rank, content_hash: chunk.hash, content: chunk.text } : { id: chunk.chunkId, score: chunk.score, rank: chunk.rank, content_hash: chunk.hash })),
  );
}

/** Drop absent values: an attribute that is not known is not sent (never a made-up 0 or ""). */
function compact(attributes: Record<string, AttributeValue | null | undefined>): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) result[key] = value;
  return result;
}
