/**
 * `groundcheck/vitest`: RAG matchers for vitest. Import it once (in a test file or a setup file)
 * and every `expect` has them:
 *
 * @example
 * import 'groundcheck/vitest';
 * await expect(trace).toBeGrounded();             // every claim verified by the trace's chunks
 * expect(trace).toRefuse();                       // the answer is a refusal
 * expect(trace).toCite('leave-policy#parental-leave');
 * expect({ query, chunks: [{ id: 'kb-1', text }], answer }).toCite('kb-1'); // an app's plain record works too
 */
import { expect } from 'vitest';
import { groundcheckMatchers, type GroundedOptions, type RefuseOptions } from '../testing/matchers.js';

expect.extend(groundcheckMatchers);

export { groundcheckMatchers, toBeGrounded, toCite, toRefuse, type GroundedOptions, type MatcherResult, type RefuseOptions } from '../testing/matchers.js';

declare module 'vitest' {
  interface Matchers<T = any> {
    /** Every checkable claim of the answer is verified by the trace's own chunks (async: await it). */
    toBeGrounded(options?: GroundedOptions): Promise<void>;
    /** The answer is a refusal (the trace says so, or the sentence or a paraphrase). */
    toRefuse(options?: RefuseOptions): T;
    /** The answer cites this chunk of the trace, by title or by id. */
    toCite(chunkId: string): T;
  }
}
