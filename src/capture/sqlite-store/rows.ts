import { flagsKeyOf, type CaptureRowOf } from '../capture-row.js';
import type { StoredJudgment } from '../types.js';

/** Row shapes of the SQLite capture store's tables and their mapping to the public types. */

/** A `captures` row: the columns both stores share, and the chunk references (schema 8; evidence by id since schema 9: JSON of `ChunkRef`s). */
export type CaptureRow = CaptureRowOf<number> & { chunk_refs: string };

/** A `judgments` row as the queries read it: the record and the capture it belongs to. */
export interface JudgmentRow {
  capture_id: number;
  record: string;
}

export function judgmentFromRecord(record: string, traceId: string): StoredJudgment {
  return { traceId, ...(JSON.parse(record) as Omit<StoredJudgment, 'traceId'>) };
}

/** The indexed columns beside the record. */
export function judgmentColumns(judgment: StoredJudgment) {
  const flags = judgment.flags;
  return {
    judgeVersion: judgment.judgeVersion,
    status: judgment.status,
    faithful: flags ? nullableFlag(flags.faithful) : null,
    hallucinated: flags ? (flags.hallucinated ? 1 : 0) : null,
    refused: flags ? (flags.refused ? 1 : 0) : null,
    judgedAt: judgment.judgedAt,
    flagsKey: flagsKeyOf(judgment.status, flags),
  };
}

function nullableFlag(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

/** The ids as one bound parameter, read back in SQL by `json_each(?)`: one statement for any number of ids. */
export function idList(ids: readonly number[]): string {
  return JSON.stringify(ids);
}

