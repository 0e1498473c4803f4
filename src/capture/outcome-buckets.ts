import { outcomeOfFlagsKey } from '../contract/flags-key.js';
import { outcomeNames, type JudgmentOutcome } from '../contract/outcome.js';
import { InvalidInputError } from '../errors.js';
import { MAX_OUTCOME_BUCKETS, OUTCOME_BUCKET_MS, type OutcomeBucket, type OutcomeCountsOptions } from './capture-store.js';

/**
 * What every store's live outcome counts (`CaptureListing.outcomeCounts`) share: the range checks
 * and how judgments counted per flags key land in a bucket, by the outcome table as it is now.
 */

/** The checks of an outcome-counts range, shared by every store. @throws InvalidInputError `invalid_range` */
export function checkOutcomeRange(options: OutcomeCountsOptions): { from: number; to: number; judgeVersion: string } {
  const { from, to, bucket, judgeVersion } = options;
  const invalid = (why: string) => new InvalidInputError(`outcomeCounts: ${why}`, { code: 'invalid_range' });
  if (typeof judgeVersion !== 'string' || judgeVersion === '') throw invalid('judgeVersion must be a judge version (kind:model:promptVersion)');
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw invalid(`from and to must be whole milliseconds since the epoch, not ${String(from)} and ${String(to)}`);
  if (to <= from) throw invalid(`to (${to}) must be after from (${from})`);
  if (bucket !== undefined) {
    if (!Object.hasOwn(OUTCOME_BUCKET_MS, bucket)) throw invalid(`bucket must be one of ${Object.keys(OUTCOME_BUCKET_MS).join(', ')}, not ${String(bucket)}`);
    const buckets = Math.ceil((to - from) / OUTCOME_BUCKET_MS[bucket]);
    if (buckets > MAX_OUTCOME_BUCKETS) throw invalid(`${buckets} buckets of a ${bucket}; at most ${MAX_OUTCOME_BUCKETS}: pick a longer bucket or a shorter range`);
  }
  return { from, to, judgeVersion };
}

/** A map from flags key to outcome, filled as keys are met: one outcome-table lookup per distinct key. */
export function outcomeOfKeyCache(): (flagsKey: string | null) => JudgmentOutcome {
  const outcomeByKey = new Map<string | null, JudgmentOutcome>();
  return (flagsKey) => {
    let outcome = outcomeByKey.get(flagsKey);
    if (outcome === undefined) {
      outcome = outcomeOfFlagsKey(flagsKey);
      outcomeByKey.set(flagsKey, outcome);
    }
    return outcome;
  };
}

/** Every outcome at zero. */
export function zeroOutcomes(): Record<JudgmentOutcome, number> {
  return Object.fromEntries(outcomeNames().map((name) => [name, 0])) as Record<JudgmentOutcome, number>;
}

/** Count `count` judgments of one flags key in `bucket`: one judgment per capture and judge version, so each judged capture leaves the unjudged ones. */
export function addJudged(bucket: OutcomeBucket, outcome: JudgmentOutcome, count: number): void {
  bucket.outcomes[outcome] += count;
  bucket.unjudged -= count;
}
