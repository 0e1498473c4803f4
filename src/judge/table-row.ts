/**
 * Table rows as statements. The generator quotes a Markdown table row, and the judge reads one,
 * as `Header: cell; Header: cell` (`splitSentenceUnits`). Such a row is one statement about its
 * first cell (the row label, "Location: London") in each column: its values must be read with
 * their own header and the row label, never as bare figures.
 */

export interface RowField {
  /** The column header; `null` for a first cell written without one (a blank header). */
  header: string | null;
  cell: string;
}

/** `Header: cell`, the header without `:` or `;` and at most ten words. */
const FIELD = /^([^:;]+?):\s+(\S.*)$/s;
const MAX_HEADER_WORDS = 10;

/**
 * Read a `Header: cell; Header: cell` row: at least two fields separated by `; `, each
 * `Header: cell` (the first may be a bare cell). Returns `null` for anything else, including a
 * single `Label: value`.
 *
 * @example
 * readTableRow('Location: London; Per night away: £45') // [{ header: 'Location', cell: 'London' }, { header: 'Per night away', cell: '£45' }]
 * readTableRow('Courses are free; travel is not.') // null
 */
export function readTableRow(text: string): RowField[] | null {
  const parts = text.trim().replace(/\.$/, '').split(/;\s+/);
  if (parts.length < 2) return null;
  const fields: RowField[] = [];
  for (const [index, part] of parts.entries()) {
    const field = FIELD.exec(part.trim());
    if (field && field[1]!.trim().split(/\s+/).length <= MAX_HEADER_WORDS) {
      fields.push({ header: field[1]!.trim(), cell: field[2]!.trim() });
    } else if (index === 0 && !part.includes(':') && part.trim() !== '') {
      fields.push({ header: null, cell: part.trim() });
    } else {
      return null;
    }
  }
  return fields;
}
