import { InvalidInputError } from '../../errors.js';
import type { ChatModel, EmbeddingModel } from '../../providers/spec.js';
import { ingestDirectory } from '../../rag/ingest.js';
import { createRagPipeline } from '../../rag/pipeline.js';
import { retrieve, type RetrievalResult } from '../../rag/retrieve.js';
import { openIndex } from '../../rag/store.js';
import { pipelineOptions, type PipelineSettings } from '../pipeline-settings.js';
import { checkChunkIds, type EvalQuestion, type QuestionSet } from '../questions.js';
import type { EvalSuite } from '../suite.js';
import type { Answerer } from './answerer.js';

export interface GroundcheckTargetOptions {
  suite: EvalSuite;
  questionSet: QuestionSet;
  embedder: EmbeddingModel;
  indexPath: string;
  /** The index is the runner's own (the default path): rebuild it when the embedder changed. */
  ownsIndex: boolean;
  /** The pipeline's settings for this eval (the suite's top-k and relevance gate, and any overrides). */
  settings: PipelineSettings;
  /** The sentence the prompt tells the model to refuse with. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
  /** What the questions are about, for the closed-book prompt (the suite's `domain`). [domain=the prompt's neutral default] */
  domain?: string;
  /** The run's clock: trace times and the outdated-document note's age check. [now=() => new Date()] */
  now?: () => Date;
}

/** groundcheck's own pipeline as the eval's target: the suite's index, retrieval once per question. */
export interface GroundcheckTarget {
  /** The answerer of one run, with that run's generator (cached, limited and metered by the runner). */
  forRun(generator: ChatModel): Answerer;
  close(): void;
}

/**
 * Open the suite's index, ingest its corpus (incrementally) and check every relevant chunk id
 * exists. Retrieval runs once per question and is shared by every run: the same chunks feed both
 * answers and the judges. It runs inside the question's own task (the answerer's `prepare`)
 * rather than as a phase of its own, so the first model calls start as soon as the first
 * question is retrieved (bench:eval).
 *
 * @throws InvalidInputError `invalid_suite` when the suite has no corpus, `unknown_chunk_id`.
 */
export async function openGroundcheckTarget(options: GroundcheckTargetOptions): Promise<GroundcheckTarget> {
  const { suite, settings } = options;
  if (suite.corpusDir === null) {
    throw new InvalidInputError(`${suite.source}: the groundcheck target needs a corpus: add "corpus" to the suite, or give --corpus with a .jsonl question file`, { code: 'invalid_suite' });
  }
  // The default eval index is derived data owned by the runner: rebuild it if the embedder
  // changed. An index path the caller chose is never wiped.
  const index = openIndex({ path: options.indexPath, embedder: options.embedder, rebuild: options.ownsIndex });
  try {
    await ingestDirectory(index, suite.corpusDir);
    checkChunkIds(options.questionSet, (chunkId) => index.getChunk(chunkId) !== undefined);
  } catch (error) {
    index.close();
    throw error;
  }
  const { retrieval: retrievalOptions, prompt, ...answerOptions } = pipelineOptions(settings);
  if (options.refusalSentence) prompt.refusalSentence = options.refusalSentence;
  if (options.domain) prompt.domain = options.domain;
  const retrievals = new Map<string, Promise<RetrievalResult>>();
  const retrievalOf = (question: EvalQuestion): Promise<RetrievalResult> => {
    let retrieval = retrievals.get(question.id);
    if (!retrieval) {
      retrieval = retrieve(index, question.question, retrievalOptions).catch((error: unknown) => {
        throw new Error(`retrieval failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
      // A failed retrieval is reported by each question that awaits it, never as an unhandled rejection.
      retrieval.catch(() => {});
      retrievals.set(question.id, retrieval);
    }
    return retrieval;
  };
  return {
    forRun(generator) {
      const pipeline = createRagPipeline({ index, chat: generator, retrieval: retrievalOptions, prompt, ...answerOptions, ...(options.now ? { now: options.now } : {}) });
      return {
        norag: true,
        documentOf: (chunkId) => index.getChunk(chunkId)?.documentSlug,
        prepare: async (question) => {
          await retrievalOf(question);
        },
        answer: async (question, mode, signal) =>
          pipeline.ask(question.question, {
            mode,
            ...(mode === 'rag' ? { retrieval: await retrievalOf(question) } : {}),
            ...(signal ? { abortSignal: signal } : {}),
          }),
      };
    },
    close: () => index.close(),
  };
}
