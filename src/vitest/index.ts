/**
 * `groundcheck/vitest`: RAG matchers for vitest. Import it once (in a test file or a setup file)
 * and every `expect` has them:
 *
 * @example
 * import 'groundcheck/vitest';
 * await expect(trace).toBeGrounded();             // every claim verified by the trace's chunks
 * await expect(trace).toAnswerCorrectly({ reference }); // on topic, grounded, complete (or a right refusal)
 * expect(trace).toRefuse();                       // the answer is a refusal
 * expect(trace).toCite('leave-policy#parental-leave');
 * expect({ query, chunks: [{ id: 'kb-1', text }], answer }).toCite('kb-1'); // an app's plain record works too
 */
import { expect } from 'vitest';
import type { JudgmentOutcome } from '../contract/outcome.js';
import { groundcheckMatchers, type GroundedOptions, type OutcomeOptions, type RefuseOptions } from '../testing/matchers.js';

expect.extend(groundcheckMatchers);

export { groundcheckMatchers, toAnswerCorrectly, toBeGrounded, toCite, toHaveOutcome, toRefuse, type GroundedOptions, type MatcherResult, type OutcomeOptions, type RefuseOptions } from '../testing/matchers.js';

declare module 'vitest' {
  interface Matchers<T = any> {
    /** Every checkable claim of the answer is verified by the trace's own chunks (async: await it). */
    toBeGrounded(options?: GroundedOptions): Promise<void>;
    /** The judgment's outcome (the outcome table's) is this one, or one of these (async: await it). */
    toHaveOutcome(outcome: JudgmentOutcome | readonly JudgmentOutcome[], options?: OutcomeOptions): Promise<void>;
    /** The outcome is a pass: `correct`, or `correct_refusal` (async: await it). */
    toAnswerCorrectly(options?: OutcomeOptions): Promise<void>;
    /** The answer is a refusal (the trace says so, or the sentence or a paraphrase). */
    toRefuse(options?: RefuseOptions): T;
    /** The answer cites this chunk of the trace, by title or by id. */
    toCite(chunkId: string): T;
  }
}
