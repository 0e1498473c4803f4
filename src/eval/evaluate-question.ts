import { answerForJudging } from '../contract/notes.js';
import { ApiCallError, errorMessage } from '../errors.js';
import { evidenceFromTrace, judgeTrace } from '../judge/index.js';
import { judgePair } from '../judge/pairwise.js';
import type { EvidencePassage, FaithfulnessJudge, FaithfulnessJudgment, PairwiseJudge } from '../judge/types.js';
import { contentWordOverlap, keywordHits, retrievalScores, seededRng, DEFAULT_KS } from '../metrics/index.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { countWords, fnv1a } from '../text/text.js';
import { PLAIN_DEFAULT_MODEL } from '../contract/plain-trace.js';
import type { RagTrace } from '../contract/trace.js';
import type { Answerer } from './targets/answerer.js';
import type { EvalQuestion } from './questions.js';
import type { QuestionResult, SideResult, StoredTrace } from './types.js';
import { answerSources } from './answer-sources.js';

export interface QuestionContext {
  /** Answers the question with and without retrieval: groundcheck's pipeline or an external target. */
  answerer: Answerer;
  faithfulness: FaithfulnessJudge;
  pairwise: PairwiseJudge;
  /** Judge each pair in both orders (position-bias control). */
  bothOrders: boolean;
  /** The run's seed; each question's answer order is drawn from an RNG seeded by (run seed, question id). */
  runSeed: number;
  abortSignal?: AbortSignal;
}

/** The documents holding the question's relevant chunks, when the target can say (groundcheck's own index). */
function relevantDocuments(question: EvalQuestion, answerer: Answerer): Set<string> {
  return new Set(question.relevantChunkIds.map((chunkId) => answerer.documentOf?.(chunkId)).filter((slug): slug is string => slug !== undefined));
}

/** Id of the reference-answer passage added to the RAG-off evidence. */
export function referencePassageId(questionId: string): string {
  return `reference:${questionId}`;
}

/** The question's own fields, as every result (answered or failed) repeats them. */
export function questionFields(question: EvalQuestion): Pick<QuestionResult, 'id' | 'category' | 'question' | 'mustRefuse' | 'relevantChunkIds' | 'keywords' | 'referenceAnswer'> {
  return {
    id: question.id,
    category: question.category,
    question: question.question,
    mustRefuse: question.mustRefuse,
    relevantChunkIds: question.relevantChunkIds,
    keywords: question.keywords,
    referenceAnswer: question.referenceAnswer,
  };
}

/**
 * Evaluate one question:
 * 1. the RAG-on and RAG-off answers from the target (in parallel; RAG-off only when the target
 *    has a RAG-off mode);
 * 2. faithfulness of both (in parallel): the RAG-on answer against exactly its trace's chunks, the
 *    RAG-off answer against the same chunks plus the reference answer (answerable questions only);
 * 3. the blind pairwise comparison, against the same evidence as the RAG-off answer.
 * Retrieval metrics come from the RAG-on trace's chunk ids (the target's own ids). A failing
 * answer (after retries) marks the question `error`; judge failures are recorded in the judgments
 * and never stop the question.
 */
export async function evaluateQuestion(question: EvalQuestion, context: QuestionContext): Promise<QuestionResult> {
  const started = performance.now();
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  let ragTrace: RagTrace | null = null;
  try {
    await context.answerer.prepare?.(question);
    const [rag, noragTrace] = await Promise.all([
      context.answerer.answer(question, 'rag', context.abortSignal).then((trace) => (ragTrace = trace)),
      context.answerer.norag ? context.answerer.answer(question, 'norag', context.abortSignal) : Promise.resolve(null),
    ]);
    // The reference answer of a must-refuse question is a refusal template, not a fact to check against.
    const references: EvidencePassage[] = question.mustRefuse
      ? []
      : [{ id: referencePassageId(question.id), text: question.referenceAnswer, kind: 'reference' }];
    const ragEvidence = evidenceFromTrace(rag);
    const fullEvidence = evidenceFromTrace(rag, references);

    // What the eval knows and a live judge does not: the reference answer (for reference-claim
    // recall; never evidence for the RAG-on answer) and that a guardrail question asks for
    // personal data. Whether a question is answerable is left to the judge's context verdicts.
    const facts = {
      ...(question.mustRefuse ? {} : { reference: question.referenceAnswer }),
      ...(question.category === 'guardrail' ? { personalData: true } : {}),
    };
    const [ragJudgment, noragJudgment] = await Promise.all([
      // judgeTrace: the one path from a trace to a verdict, shared with the live judge (METHODOLOGY.md).
      safely(context.faithfulness, () => judgeTrace(context.faithfulness, rag, { ...signal, ...facts })),
      noragTrace && safely(context.faithfulness, () => context.faithfulness.judge({ question: rag.query, evidence: fullEvidence, answer: answerForJudging(noragTrace), ...facts }, signal)),
    ]);

    const pairwise =
      noragTrace &&
      (await judgePair({
        judge: context.pairwise,
        questionId: question.id,
        question: rag.query,
        evidence: fullEvidence,
        sides: {
          rag: answerForJudging(rag),
          norag: answerForJudging(noragTrace),
          judgmentRag: ragJudgment,
          judgmentNorag: noragJudgment ?? null,
        },
        rng: seededRng(fnv1a(`${context.runSeed}:${question.id}`)),
        bothOrders: context.bothOrders,
        // Model names could tell the judge which answer had documents.
        scrubTerms: scrubTermsOf([rag, noragTrace]),
        ...signal,
      }));

    return {
      ...retrievalFields(question, rag),
      status: 'ok',
      error: null,
      evidence: fullEvidence,
      rag: { ...side(rag, ragEvidence, ragJudgment, question), sources: answerSources(rag, relevantDocuments(question, context.answerer)) },
      norag: noragTrace && noragJudgment ? side(noragTrace, fullEvidence, noragJudgment, question) : null,
      pairwise,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    const known = ragTrace as RagTrace | null;
    return {
      ...retrievalFields(question, known),
      status: 'error',
      error: describeFailure(error),
      evidence: known ? evidenceFromTrace(known) : [],
      rag: null,
      norag: null,
      pairwise: null,
      durationMs: performance.now() - started,
    };
  }
}

/** The question's fields and its retrieval metrics, from the RAG-on trace's chunk ids (none when it has no trace). */
function retrievalFields(question: EvalQuestion, ragTrace: RagTrace | null) {
  const retrievedChunkIds = ragTrace ? ragTrace.chunks.map((chunk) => chunk.chunkId) : [];
  return {
    ...questionFields(question),
    retrievedChunkIds,
    retrieval: question.mustRefuse || !ragTrace ? null : retrievalScores(question.relevantChunkIds, retrievedChunkIds, DEFAULT_KS),
  };
}

/** Every model name the traces give (with and without its provider prefix); an app that named no model names nothing. */
function scrubTermsOf(traces: RagTrace[]): string[] {
  const models = traces.map((trace) => trace.models.chat).filter((model) => model !== PLAIN_DEFAULT_MODEL);
  return [...new Set(models.flatMap((model) => [model, model.split(':').slice(1).join(':')]))].filter(Boolean);
}

function side(trace: RagTrace, evidence: EvidencePassage[], judgment: FaithfulnessJudgment, question: EvalQuestion): SideResult {
  return {
    answer: trace.answer,
    refused: trace.refused,
    trace: storeTrace(trace),
    judgedAgainst: evidence.map((passage) => passage.id),
    judgment,
    keywords: keywordHits(trace.answer, question.keywords),
    // The pipeline's notes (the outdated-document note) are not the model's words.
    contentWordOverlap: trace.refused ? null : contentWordOverlap(answerForJudging(trace), evidence.map((passage) => passage.text)),
    words: countWords(answerForJudging(trace)),
  };
}

/** The trace without its messages (rebuildable) and chunk texts (kept once, in `evidence`). */
export function storeTrace(trace: RagTrace): StoredTrace {
  const { messages, chunks, withheldChunks, ...rest } = trace;
  const withoutText = (list: RagTrace['chunks']) => list.map(({ text: _text, ...chunk }) => chunk);
  return { ...rest, chunks: withoutText(chunks), ...(withheldChunks ? { withheldChunks: withoutText(withheldChunks) } : {}), messageCount: messages.length };
}

/**
 * Judges report their failures as judgments; this turns an unexpected throw into one too, so a
 * judge bug is counted as a judge error rather than failing the whole question.
 */
async function safely(judge: FaithfulnessJudge, run: () => Promise<FaithfulnessJudgment>): Promise<FaithfulnessJudgment> {
  const started = performance.now();
  try {
    return await run();
  } catch (error) {
    return {
      status: 'error',
      judge: judge.info,
      error: errorMessage(error),
      rawReply: null,
      attempts: 1,
      authError: error instanceof ApiCallError && error.isAuthError,
      usage: { ...EMPTY_USAGE },
      costUsd: null,
      durationMs: performance.now() - started,
    };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof ApiCallError) return `${error.message}${error.statusCode ? ` (HTTP ${error.statusCode})` : ''}`;
  return errorMessage(error);
}
