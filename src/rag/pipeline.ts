import { newTraceId } from '../contract/trace-id.js';
import { EMPTY_USAGE, type ChatModel } from '../providers/spec.js';
import { buildMessages, PROMPT_VERSION, type PromptOptions } from './prompt.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { renderAnswerWithNotes } from '../contract/notes.js';
import { outdatedCitedChunks, outdatedNoteSettings, type OutdatedNoteOptions } from './outdated-note.js';
import { retrieve, validateQuery, type RetrievalResult, type RetrieveOptions } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';
import type { RagMode, RagTrace } from '../contract/trace.js';

export interface RagPipelineOptions {
  index: GroundcheckIndex;
  chat: ChatModel;
  retrieval?: RetrieveOptions;
  prompt?: PromptOptions;
  /** Sampling temperature for answers. [temperature=0] */
  temperature?: number;
  /** Output token cap passed to the model. [maxOutputTokens=400] */
  maxOutputTokens?: number;
  /** Trace id generator. [generateId=newTraceId: time-ordered UUID version 7, so capture stores index them at their end] */
  generateId?: () => string;
  /** Clock: trace timestamps and the outdated-document note's age check. [now=() => new Date()] */
  now?: () => Date;
  /**
   * Append a note to answers that cite a document last updated more than `maxAgeMonths` ago
   * (`OUTDATED_NOTE`: "Note: this document may be outdated — please check that it is still current."); recorded in the
   * trace's `notes`, and taken off again before judging. `false` turns it off.
   * [outdatedNote={ maxAgeMonths: 6, text: OUTDATED_NOTE }]
   */
  outdatedNote?: OutdatedNoteOptions | false;
}

export interface AskOptions {
  /** `rag` answers from retrieved chunks; `norag` asks the model the bare question. [mode='rag'] */
  mode?: RagMode;
  /** A retrieval already run for this question: reused as is, never run again. */
  retrieval?: RetrievalResult;
  abortSignal?: AbortSignal;
}

export interface RagPipeline {
  readonly index: GroundcheckIndex;
  readonly chat: ChatModel;
  retrieve(question: string): Promise<RetrievalResult>;
  /** Retrieve once (unless given a retrieval), build the prompt, answer, and return the trace. */
  ask(question: string, options?: AskOptions): Promise<RagTrace>;
}

/**
 * The grounded question-answering pipeline. `ask` retrieves exactly once, refuses without calling
 * the model when the gate finds nothing relevant, and returns a {@link RagTrace} that downstream
 * stages (capture, judges, evals) consume as is.
 *
 * @example
 * const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
 * const trace = await pipeline.ask('How many weeks of parental leave do I get?');
 * console.log(trace.answer, trace.chunks.map((chunk) => chunk.chunkId));
 */
export function createRagPipeline(options: RagPipelineOptions): RagPipeline {
  const { index, chat } = options;
  const generateId = options.generateId ?? newTraceId;
  const now = options.now ?? (() => new Date());
  const refusal = options.prompt?.refusalSentence ?? REFUSAL_SENTENCE;
  const noteSettings = options.outdatedNote === false ? null : outdatedNoteSettings(options.outdatedNote);

  return {
    index,
    chat,
    retrieve: (question) => retrieve(index, question, options.retrieval),
    async ask(question, askOptions = {}) {
      const started = performance.now();
      const query = validateQuery(question);
      const mode: RagMode = askOptions.mode ?? 'rag';
      const askedAt = now();
      const createdAt = askedAt.toISOString();
      const base = {
        id: generateId(),
        createdAt,
        query,
        mode,
        promptVersion: PROMPT_VERSION,
        models: { chat: `${chat.provider}:${chat.modelId}`, embedding: mode === 'rag' ? `${index.embedder.provider}:${index.embedder.modelId}` : null },
      };

      let retrieval: RetrievalResult | null = null;
      let retrievalMs = 0;
      if (mode === 'rag') {
        retrieval = askOptions.retrieval ?? (await retrieve(index, query, options.retrieval));
        retrievalMs = askOptions.retrieval ? 0 : performance.now() - started;
      }
      const retrievalSummary = retrieval && {
        gated: retrieval.gated,
        gateReason: retrieval.gateReason ?? null,
        ...(retrieval.termCoverage ? { termCoverage: retrieval.termCoverage } : {}),
        minSimilarity: retrieval.minSimilarity,
        topSimilarity: retrieval.topSimilarity,
        candidates: retrieval.candidates,
        embedder: retrieval.embedder,
      };

      if (retrieval?.gated) {
        return {
          ...base,
          chunks: [],
          withheldChunks: retrieval.withheld,
          retrieval: retrievalSummary,
          messages: [],
          answer: refusal,
          refused: true,
          refusalReason: 'gate',
          usage: { ...EMPTY_USAGE },
          costUsd: 0,
          finishReason: null,
          timings: { retrievalMs, generationMs: 0, totalMs: performance.now() - started },
        };
      }

      const chunks = retrieval?.chunks ?? [];
      const messages = buildMessages(query, chunks, mode, options.prompt);
      const generationStarted = performance.now();
      const result = await chat.generate({
        messages,
        temperature: options.temperature ?? 0,
        maxOutputTokens: options.maxOutputTokens ?? 400,
        ...(askOptions.abortSignal ? { abortSignal: askOptions.abortSignal } : {}),
      });
      const generationMs = performance.now() - generationStarted;
      const modelAnswer = result.text.trim();
      const refused = isRefusal(modelAnswer, refusal);
      const notes = !refused && noteSettings && outdatedCitedChunks(modelAnswer, chunks, askedAt, noteSettings.maxAgeMonths).length > 0 ? [noteSettings.text] : [];
      const answer = renderAnswerWithNotes(modelAnswer, notes);
      return {
        ...base,
        models: { ...base.models, chat: `${chat.provider}:${result.modelId || chat.modelId}` },
        chunks,
        retrieval: retrievalSummary,
        messages,
        answer,
        ...(notes.length > 0 ? { notes } : {}),
        refused,
        refusalReason: refused ? 'model' : null,
        usage: result.usage,
        costUsd: result.costUsd,
        finishReason: result.finishReason,
        timings: { retrievalMs, generationMs, totalMs: performance.now() - started },
      };
    },
  };
}
