/**
 * The mark groundcheck puts in the pages it writes (eval and sweep reports), so that its own
 * output is never read back as someone's source: `explainErrors` indexes an app's templates, and a
 * report written under the app's folder (`groundcheck eval --out evals/results`) is not one.
 */
export const GENERATOR_META = '<meta name="generator" content="groundcheck">';

/** Whether a page's start holds {@link GENERATOR_META}. */
export function isGeneratedPage(head: string): boolean {
  return head.includes(GENERATOR_META);
}
