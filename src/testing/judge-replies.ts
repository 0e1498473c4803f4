import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { parseFaithfulnessPrompt } from '../judge/llm-prompt.js';
import { splitSentences } from '../text/text.js';

/**
 * A valid reply of the LLM faithfulness judge (`faithfulness-v3`) to the prompt in `user`, for mock
 * judges in tests and benchmarks: every passage `related` (the first one `answers`), relevance
 * `answers`, and the answer as one claim, verified by the first passage with a quote really taken
 * from it (or `absent` when there is no passage). A refusal has no claim.
 *
 * @example
 * const server = await startMockOpenAIServer({ chat: (request) => chatReply(faithfulnessJudgeReply(lastUserMessage(request))) });
 */
export function faithfulnessJudgeReply(user: string, options: { verdict?: 'verified' | 'absent' } = {}): string {
  const { evidence, answer } = parseFaithfulnessPrompt(user);
  const first = evidence[0];
  const refusal = answer.trim() === '' || answer.trim() === REFUSAL_SENTENCE;
  const quote = first ? (splitSentences(first.text.split('\n').slice(1).join(' ') || first.text)[0] ?? first.text).slice(0, 120).trim() : null;
  const verified = options.verdict !== 'absent' && first !== undefined && quote !== null && quote !== '';
  const claims = refusal
    ? []
    : [
        verified
          ? { text: answer.slice(0, 160), reason: 'stated in the passage', verdict: 'verified', evidenceId: first!.id, quote }
          : { text: answer.slice(0, 160), reason: 'no passage says it', verdict: 'absent', evidenceId: null, quote: null },
      ];
  return JSON.stringify({
    contexts: evidence.map((passage, index) => ({ id: passage.id, reason: 'mock judge', verdict: index === 0 ? 'answers' : 'related' })),
    personalData: { reason: 'mock judge', value: false },
    answerRelevance: { reason: 'mock judge', verdict: refusal ? 'refusal' : 'answers' },
    claims,
    referenceClaims: [],
  });
}
