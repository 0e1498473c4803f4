/**
 * Every kind of SQLite file groundcheck writes, with the `PRAGMA application_id` that marks it.
 * One registry, so the ids stay distinct and an opener can name the kind of a file it was not
 * asked to open ("… is a groundcheck LLM cache, not a groundcheck capture store").
 *
 * To add a kind: give it an id here (four ASCII letters as a big-endian integer, like the others,
 * and not used before), then open its files with `openSqlite({ kind })`.
 */

export type SqliteFileKind = 'index' | 'capture-store' | 'llm-cache';

export interface SqliteFileKindInfo {
  kind: SqliteFileKind;
  /** What a person calls it, in error messages: `groundcheck capture store`. */
  label: string;
  /** How its schema version is named in messages: `capture schema 3`. */
  schemaLabel: string;
  /** `PRAGMA application_id` of files of this kind. */
  applicationId: number;
  /**
   * Files written before the kinds had ids of their own carry {@link LEGACY_SHARED_APPLICATION_ID};
   * such a file is of this kind when it holds every one of these tables. Absent: this kind never
   * used the shared id.
   */
  legacyTables?: readonly string[];
  /**
   * The schema version of a legacy file whose `user_version` is 0 (the LLM cache never set one:
   * its single table is its version 1). Absent: the legacy file's `user_version` is its version.
   */
  legacyUnversionedIs?: number;
}

/** Four ASCII letters as the big-endian integer SQLite stores. */
function fourLetters(text: string): number {
  if (!/^[\x20-\x7e]{4}$/.test(text)) throw new Error(`application id ${JSON.stringify(text)} must be four ASCII letters`);
  return [...text].reduce((value, letter) => value * 256 + letter.charCodeAt(0), 0);
}

/**
 * "GCC1": the id the capture store and the LLM cache once shared. Never written any more; files
 * that carry it are told apart by their tables and re-stamped with their own kind's id when opened.
 */
export const LEGACY_SHARED_APPLICATION_ID = fourLetters('GCC1');

export const SQLITE_FILE_KINDS: Readonly<Record<SqliteFileKind, SqliteFileKindInfo>> = {
  index: { kind: 'index', label: 'groundcheck index', schemaLabel: 'schema', applicationId: fourLetters('GCK1') },
  'capture-store': {
    kind: 'capture-store',
    label: 'groundcheck capture store',
    schemaLabel: 'capture schema',
    applicationId: fourLetters('GCS1'),
    legacyTables: ['captures', 'judgments'],
  },
  'llm-cache': {
    kind: 'llm-cache',
    label: 'groundcheck LLM cache',
    schemaLabel: 'cache schema',
    applicationId: fourLetters('GCL1'),
    legacyTables: ['calls'],
    legacyUnversionedIs: 1,
  },
};

/** The kind whose files carry `applicationId`, if any. */
export function kindOfApplicationId(applicationId: number): SqliteFileKindInfo | undefined {
  return Object.values(SQLITE_FILE_KINDS).find((info) => info.applicationId === applicationId);
}

/** The kind a legacy shared-id file is, from the tables it holds (`undefined` when none fits). */
export function kindOfLegacyFile(tables: ReadonlySet<string>): SqliteFileKindInfo | undefined {
  return Object.values(SQLITE_FILE_KINDS).find((info) => info.legacyTables !== undefined && info.legacyTables.every((table) => tables.has(table)));
}
