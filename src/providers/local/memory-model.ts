import { parseQuestionMessage, parseWordLimit } from '../../contract/formats.js';
import { parseGuardrailRule, parseRefusalRule, REFUSAL_SENTENCE } from '../../contract/refusal.js';
import type { ChatCallOptions, ChatModel, ChatResult } from '../spec.js';
import { streamFromGenerate } from '../stream.js';
import { answerExtractively } from './extractive-answerer.js';
import { localResult, promptParts } from './generator.js';
import { loadMemorySnapshot } from './memory-snapshot.js';
import type { Source } from './prompt-sources.js';
import { weighQuestion } from './question-weights.js';
import { topicCoverage } from './topic-coverage.js';

export interface MemoryChatModelOptions {
  /** The "training snapshot" it remembers. [memory=loadMemorySnapshot() (fixtures/memory)] */
  memory?: Source[];
  /** Sections it recalls for a question, best first. [recall=3] */
  recall?: number;
  /** Share of the question's topic weight the recalled memory must hold before it answers. [minCoverage=0.4] */
  minCoverage?: number;
  /** Answers `rag` prompts (with documents); the memory model itself only answers closed-book ones. */
  grounded: ChatModel;
}

/** Model id of the closed-book memory model. */
export const MEMORY_CHAT_MODEL_ID = 'local-memory-2024';

/**
 * A simulated closed-book model: on a prompt with no documents (`norag`), it "recalls" the
 * sections of its training snapshot that best cover the question and answers with sentences from
 * them, with the same extractive machinery as the grounded model but no citations (a model does
 * not cite its memory). The snapshot is the handbook as it stood in 2024 plus generic UK-employer
 * facts, so its answers are stale or not this company's in the ways a real model's memory is.
 * Prompts with documents go to `grounded`. It is a simulation, labelled as such wherever its
 * answers are reported.
 */
export function createMemoryChatModel(options: MemoryChatModelOptions): ChatModel {
  // Read on the first closed-book question, so building the model never touches the disk.
  let memory: Source[] | undefined = options.memory;
  const remembered = () => (memory ??= loadMemorySnapshot());
  const recall = options.recall ?? 3;
  const minCoverage = options.minCoverage ?? 0.4;
  const model: ChatModel = {
    provider: options.grounded.provider,
    modelId: options.grounded.modelId,
    async generate(call: ChatCallOptions): Promise<ChatResult> {
      const { systemMessage, userMessage } = promptParts(call);
      const message = parseQuestionMessage(userMessage);
      if (message.documents !== null && message.documents.length > 0) return options.grounded.generate(call);
      const refusal = parseRefusalRule(systemMessage) ?? REFUSAL_SENTENCE;
      const snapshot = remembered();
      const weighted = weighQuestion(message.question, snapshot.flatMap((source) => source.units));
      const recalled = snapshot
        .map((source) => ({ source, coverage: topicCoverage(weighted, source) }))
        .filter((entry) => entry.coverage > 0)
        .sort((a, b) => b.coverage - a.coverage)
        .slice(0, recall)
        .map((entry, rank) => ({ ...entry.source, document: { ...entry.source.document, rank } }))
        .map((source) => ({ document: source.document, units: source.units.map((unit) => ({ ...unit, document: source.document })) }));
      const answer = answerExtractively(message.question, recalled, {
        refusal,
        guardrail: parseGuardrailRule(systemMessage),
        minCoverage,
        maxSentences: 2,
        wordCap: parseWordLimit(systemMessage) ?? 150,
        cite: false,
      });
      return localResult(call, answer.text, MEMORY_CHAT_MODEL_ID);
    },
  };
  model.stream = streamFromGenerate((call) => model.generate(call));
  return model;
}
