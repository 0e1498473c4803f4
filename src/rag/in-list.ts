import type Database from 'better-sqlite3';

/** Values bound per `IN (…)` statement; well under SQLite's limit of 32,766 parameters. */
const IN_LIST_BATCH = 500;

/**
 * Statements with an `IN (?, …)` list, for the index: rows of `sql(list)` for every value,
 * queried in batches of up to 500 values bound into the list's placeholders (after any `leading`
 * parameters). Each batch length gets its statement prepared once per connection, not on every
 * search.
 */
export class InListQueries {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  rows<Row>(query: string, sql: (list: string) => string, values: readonly (number | string)[], leading: readonly unknown[] = []): Row[] {
    const rows: Row[] = [];
    for (let start = 0; start < values.length; start += IN_LIST_BATCH) {
      const batch = values.slice(start, start + IN_LIST_BATCH);
      const key = `${query}:${batch.length}`;
      let statement = this.statements.get(key);
      if (!statement) {
        statement = this.db.prepare(sql(batch.map(() => '?').join(',')));
        this.statements.set(key, statement);
      }
      rows.push(...(statement.all(...leading, ...batch) as Row[]));
    }
    return rows;
  }
}
