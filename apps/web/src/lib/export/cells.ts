// How one value of a list goes into an exported file, whatever the format: dates as ISO 8601 in
// UTC, numbers kept as numbers, and text that a spreadsheet would read as a formula marked so
// that it never runs (OWASP "CSV injection"). ADR 0019.

/** What a column holds, which decides how its values are written. */
export type ColumnKind = 'text' | 'number' | 'date' | 'datetime';

/** One column of an export: its header as the list shows it, and what it holds. */
export interface ExportColumn {
  header: string;
  kind: ColumnKind;
}

/** A value ready for a file: a real number, text (flagged when it looks like a formula), or nothing. */
export type PreparedCell =
  | { type: 'empty' }
  | { type: 'number'; value: string }
  | { type: 'text'; value: string; formulaLike: boolean };

/** The characters a spreadsheet reads as the start of a formula or a command (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number as JSON writes it: no spaces, no thousands separators, no hex. */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:$|T)/;

/** A `;` or a tab: the list separator of spreadsheets in many locales (German, French, ...). */
const PART_SEPARATOR = /([;\t])/;

/**
 * Whether a spreadsheet would take this text, or a part of it after a `;` or a tab (a cell of its
 * own where that is the list separator), for a formula: it starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return.
 *
 * @example
 * looksLikeFormula('=HYPERLINK("http://evil")'); // true
 * looksLikeFormula('Acme;=cmd'); // true
 * looksLikeFormula('Printer jam'); // false
 */
export function looksLikeFormula(text: string): boolean {
  return text
    .split(PART_SEPARATOR)
    .some((part, i) => i % 2 === 0 && FORMULA_START.test(i === 0 ? text : part));
}

/**
 * The text with a `'` before each part that would start a formula (the start, and each part
 * after a `;` or a tab), so a spreadsheet shows it as text whichever separator it splits on.
 *
 * @example
 * neutralized('=1+1'); // "'=1+1"
 * neutralized('Acme;=cmd'); // "Acme;'=cmd"
 */
export function neutralized(text: string): string {
  return text
    .split(PART_SEPARATOR)
    .map((part, i) =>
      i % 2 === 0 && FORMULA_START.test(i === 0 ? text : part) ? `'${part}` : part,
    )
    .join('');
}

/**
 * Whether a value is a plain number (what a NUMBER or DECIMAL field holds), so `-5` stays the
 * number -5 in a number column rather than being neutralized as text.
 *
 * @example
 * isPlainNumber('-5'); // true
 * isPlainNumber('-5+cmd'); // false
 */
export function isPlainNumber(text: string): boolean {
  return PLAIN_NUMBER.test(text) && Number.isFinite(Number(text));
}

/**
 * A date or date-time value in ISO 8601, UTC: `2024-05-01T09:30:00.000Z` for a date-time (any
 * offset the server sent is converted), `2024-05-01` for a date. A value that is not a date stays
 * as it is (and is then treated as text).
 *
 * @example
 * isoUtc('2024-05-01T11:30:00+02:00', 'datetime'); // '2024-05-01T09:30:00.000Z'
 * isoUtc('2024-05-01T00:00:00.000Z', 'date'); // '2024-05-01'
 */
export function isoUtc(value: string, kind: 'date' | 'datetime'): string {
  if (kind === 'date') {
    const match = ISO_DATE.exec(value);
    return match?.[1] ?? value;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/**
 * Prepares one value of a column: a number column keeps real numbers (negatives included) as
 * numbers; date columns are converted to ISO 8601 UTC; everything else is text, flagged when it
 * looks like a formula.
 *
 * @example
 * prepareCell('-5', 'number'); // { type: 'number', value: '-5' }
 * prepareCell('-5', 'text'); // { type: 'text', value: '-5', formulaLike: true }
 */
export function prepareCell(value: string | undefined, kind: ColumnKind): PreparedCell {
  if (value === undefined || value === '') return { type: 'empty' };
  if (kind === 'number' && isPlainNumber(value)) return { type: 'number', value };
  const text = kind === 'date' || kind === 'datetime' ? isoUtc(value, kind) : value;
  return { type: 'text', value: text, formulaLike: looksLikeFormula(text) };
}

/**
 * The header of a column in a file: date columns say that their values are UTC.
 *
 * @example
 * headerText({ header: 'Updated At', kind: 'datetime' }); // 'Updated At (UTC)'
 */
export function headerText(column: ExportColumn): string {
  return column.kind === 'date' || column.kind === 'datetime'
    ? `${column.header} (UTC)`
    : column.header;
}

/** Turns rows of values into bytes of one file format, in order; `finish` ends the file. */
export interface ExportEncoder {
  /** The file's extension and media type. */
  readonly extension: string;
  readonly mediaType: string;
  /** The start of the file: the header row. */
  start(columns: ExportColumn[]): Uint8Array[];
  /** One page of rows (each row's values in column order). */
  rows(rows: (string | undefined)[][]): Uint8Array[];
  /** The end of the file. */
  finish(): Uint8Array[];
}

/**
 * The kind of a column from its field type: numbers, dates and date-times are written as such,
 * everything else (picklists, users, text) as text.
 *
 * @example
 * columnKindOf('DECIMAL'); // 'number'
 * columnKindOf('PICKLIST'); // 'text'
 */
export function columnKindOf(fieldType: string | undefined): ColumnKind {
  switch (fieldType) {
    case 'NUMBER':
    case 'DECIMAL':
      return 'number';
    case 'DATE':
      return 'date';
    case 'DATETIME':
      return 'datetime';
    default:
      return 'text';
  }
}
