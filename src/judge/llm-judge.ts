import { ApiCallError, InvalidInputError, errorMessage } from '../errors.js';
import type { ChatMessage, ChatModel, Usage } from '../providers/spec.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { answerForJudging } from '../contract/notes.js';
import { deriveFaithfulness, resolvePolicy } from './faithfulness-score.js';
import { buildFaithfulnessMessages, DEFAULT_JUDGE_DOMAIN, FAITHFULNESS_PROMPT_VERSION, FAITHFULNESS_RESPONSE_FORMAT, repairMessage } from './llm-prompt.js';
import { parseFaithfulnessReply } from './llm-reply.js';
import type { FaithfulnessInput, FaithfulnessJudge, FaithfulnessJudgment, FaithfulnessPolicy, JudgeInfo } from './types.js';

export interface LlmFaithfulnessJudgeOptions {
  /** The model that judges (temperature 0, structured output when the endpoint supports it). */
  chat: ChatModel;
  /** Whether absent claims count as hallucinations. [policy={ absentIsHallucination: true }] */
  policy?: Partial<FaithfulnessPolicy>;
  /** Calls per judgment when replies cannot be used (unparseable, bad verdict, unknown evidence id). [maxAttempts=2] */
  maxAttempts?: number;
  /** Output token cap per call. [maxOutputTokens=2000] */
  maxOutputTokens?: number;
  /** The app's refusal sentence, recognised in code besides common paraphrases. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
  /** How the prompt describes the documents, e.g. "an employee handbook". [domain='a collection of documents'] */
  domain?: string;
}

/**
 * A faithfulness judge backed by a chat model. The model answers explicit questions: a verdict per
 * passage, whether the question asks for personal data, whether the answer addresses the question,
 * and every atomic claim with its reason, verdict and a verbatim quote (checked in code against the
 * passage), plus the reference answer's claims when one is given. Never an overall score: scores,
 * refusal correctness and the outcome are derived in code (`deriveFaithfulness`, the outcome table),
 * and refusal is detected in code by `isRefusal`. A reply that still cannot
 * be used after `maxAttempts`, or an API error, becomes a `JudgeFailure`: `judge()` never throws.
 *
 * @example
 * const chat = createOpenAI().chat('gpt-4o-mini');
 * const judge = createLlmFaithfulnessJudge({ chat });
 * const judgment = await judgeTrace(judge, trace);
 */
export function createLlmFaithfulnessJudge(options: LlmFaithfulnessJudgeOptions): FaithfulnessJudge {
  const { chat } = options ?? ({} as LlmFaithfulnessJudgeOptions);
  if (!chat || typeof chat.generate !== 'function') {
    throw new InvalidInputError('option chat is required: pass a ChatModel, e.g. createOpenAI().chat("gpt-4o-mini")', { code: 'invalid_option' });
  }
  const policy = resolvePolicy(options.policy);
  const maxAttempts = options.maxAttempts ?? 2;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 10) {
    throw new InvalidInputError(`option maxAttempts ${String(options.maxAttempts)} is invalid: use an integer from 1 to 10`, { code: 'invalid_option' });
  }
  const maxOutputTokens = options.maxOutputTokens ?? 2000;
  if (!Number.isInteger(maxOutputTokens) || maxOutputTokens < 1) {
    throw new InvalidInputError(`option maxOutputTokens ${String(options.maxOutputTokens)} is invalid: use a positive integer`, { code: 'invalid_option' });
  }
  const refusal = options.refusalSentence ?? REFUSAL_SENTENCE;
  const domain = checkDomain(options.domain);
  const info: JudgeInfo = Object.freeze({ kind: 'llm', model: `${chat.provider}:${chat.modelId}`, promptVersion: FAITHFULNESS_PROMPT_VERSION });

  return {
    info,
    async judge(given: FaithfulnessInput, callOptions: { abortSignal?: AbortSignal } = {}): Promise<FaithfulnessJudgment> {
      const started = performance.now();
      // The pipeline's default outdated-document note at the answer's end is advice, no claim: taken off here too, not only by judgeTrace.
      const input = { ...given, answer: answerForJudging({ answer: given.answer }) };
      const usage = new UsageTotal();
      let rawReply: string | null = null;
      let attempts = 0;
      let problem = 'no attempt was made';
      const messages: ChatMessage[] = buildFaithfulnessMessages(input, domain);
      try {
        while (attempts < maxAttempts) {
          attempts += 1;
          const result = await chat.generate({
            messages: [...messages],
            temperature: 0,
            maxOutputTokens,
            responseFormat: FAITHFULNESS_RESPONSE_FORMAT,
            ...(callOptions.abortSignal ? { abortSignal: callOptions.abortSignal } : {}),
          });
          usage.add(result.usage, result.costUsd);
          rawReply = result.text;
          const parsed = parseFaithfulnessReply(result.text, result.json, input.evidence);
          if (parsed.ok) {
            const refused = isRefusal(input.answer, refusal);
            const derived = deriveFaithfulness(
              {
                claims: parsed.claims,
                contexts: parsed.contexts,
                refused,
                answerRelevance: parsed.answerRelevance,
                personalData: input.personalData ?? parsed.personalData,
                referenceClaims: input.reference ? parsed.referenceClaims : null,
              },
              policy,
            );
            return { status: 'ok', judge: info, ...derived, usage: usage.usage, costUsd: usage.costUsd, durationMs: performance.now() - started };
          }
          problem = parsed.error;
          messages.push({ role: 'assistant', content: result.text }, repairMessage(parsed.error));
        }
        return failure(`judge reply could not be used after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${problem}`, false);
      } catch (error) {
        return failure(`judge call failed: ${errorMessage(error)}`, error instanceof ApiCallError && error.isAuthError);
      }

      function failure(message: string, authError: boolean): FaithfulnessJudgment {
        return {
          status: 'error',
          judge: info,
          error: message,
          rawReply,
          attempts,
          authError,
          usage: usage.usage,
          costUsd: usage.costUsd,
          durationMs: performance.now() - started,
        };
      }
    },
  };
}

/**
 * The `domain` option: a short phrase the prompts describe the documents with.
 *
 * @throws InvalidInputError `invalid_option` for an empty or multi-line value.
 */
export function checkDomain(domain: string | undefined): string {
  if (domain === undefined) return DEFAULT_JUDGE_DOMAIN;
  if (typeof domain !== 'string' || domain.trim() === '' || /[\r\n]/.test(domain) || domain.length > 200) {
    throw new InvalidInputError(`option domain ${JSON.stringify(domain)} is invalid: use a short phrase such as "an employee handbook"`, { code: 'invalid_option' });
  }
  return domain.trim();
}

/**
 * Sums usage and cost over a judgment's attempts (both LLM judges use it); a field any attempt did
 * not report becomes `null`, never a made-up 0.
 */
export class UsageTotal {
  usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  costUsd: number | null = 0;

  add(usage: Usage, costUsd: number | null): void {
    const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    this.usage = {
      inputTokens: sum(this.usage.inputTokens, usage.inputTokens),
      outputTokens: sum(this.usage.outputTokens, usage.outputTokens),
      totalTokens: sum(this.usage.totalTokens, usage.totalTokens),
    };
    this.costUsd = sum(this.costUsd, costUsd);
  }
}
