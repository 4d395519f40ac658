import type { ExportColumn, ExportEncoder, PreparedCell } from './cells.ts';
import { headerText, neutralized, prepareCell } from './cells.ts';

/** A UTF-8 byte order mark: Excel reads the file as UTF-8 only when it starts with one. */
const BOM = '\uFEFF';

/**
 * One CSV field (RFC 4180): text that looks like a formula gets a `'` before each part that would
 * start one (after a `;` or a tab too) so a spreadsheet shows it as text; a field holding a comma,
 * a quote, CR, LF, or a `;` or tab (other locales' list separators) is quoted, its quotes doubled.
 *
 * @example
 * csvField({ type: 'text', value: '=1+1', formulaLike: true }); // "'=1+1"
 * csvField({ type: 'text', value: 'a, "b"', formulaLike: false }); // '"a, ""b"""'
 * csvField({ type: 'text', value: 'Acme;=cmd', formulaLike: true }); // `"Acme;'=cmd"`
 * csvField({ type: 'number', value: '-5' }); // '-5'
 */
export function csvField(cell: PreparedCell): string {
  if (cell.type === 'empty') return '';
  if (cell.type === 'number') return cell.value;
  const text = cell.formulaLike ? neutralized(cell.value) : cell.value;
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Writes CSV: UTF-8 with a byte order mark, comma-separated, CRLF line ends, one header row
 * (date columns marked UTC).
 *
 * @example
 * const csv = createCsvEncoder();
 * const bytes = [...csv.start(columns), ...csv.rows(rows), ...csv.finish()];
 */
export function createCsvEncoder(): ExportEncoder {
  const encoder = new TextEncoder();
  let columns: ExportColumn[] = [];
  return {
    extension: 'csv',
    mediaType: 'text/csv',
    start(next) {
      columns = next;
      const header = columns
        .map((column) => csvField(prepareCell(headerText(column), 'text')))
        .join(',');
      return [encoder.encode(`${BOM}${header}\r\n`)];
    },
    rows(rows) {
      let text = '';
      for (const row of rows) {
        text += columns.map((column, i) => csvField(prepareCell(row[i], column.kind))).join(',');
        text += '\r\n';
      }
      return text ? [encoder.encode(text)] : [];
    },
    finish() {
      return [];
    },
  };
}
