// Date-times travel as UTC `YYYY-MM-DDTHH:MM:SS.SSSZ` and show in the user's own time zone;
// calendar dates (DATE fields, `YYYY-MM-DD`) show as the date itself, never shifted by a zone.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})/;

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats a stored UTC timestamp in the viewer's time zone; returns the input when unparseable.
 *
 * @example
 * formatDateTime('2024-05-01T12:00:00.000Z'); // 'May 1, 2024, 2:00 PM' in Europe/Paris
 */
export function formatDateTime(value: string): string {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : dateTimeFormat.format(time);
}

/**
 * Formats a calendar date (`YYYY-MM-DD`, or a timestamp's UTC date) without time-zone shift.
 *
 * @example
 * formatDate('2024-05-01'); // 'May 1, 2024' everywhere on Earth
 */
export function formatDate(value: string): string {
  const match = DATE_ONLY.exec(value);
  if (!match) return value;
  return dateFormat.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/**
 * `<input type="datetime-local">` value (the viewer's local wall time) -> stored UTC timestamp.
 * Returns '' for an empty or invalid input.
 *
 * @example
 * localInputToIso('2024-05-01T14:00'); // '2024-05-01T12:00:00.000Z' in Europe/Paris (UTC+2)
 */
export function localInputToIso(local: string): string {
  if (!local) return '';
  // Without a zone designator, the Date constructor reads date-time forms as local time.
  const time = new Date(local).getTime();
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}

/**
 * Stored UTC timestamp -> `<input type="datetime-local">` value in the viewer's time zone.
 *
 * @example
 * isoToLocalInput('2024-05-01T12:00:00.000Z'); // '2024-05-01T14:00' in Europe/Paris
 */
export function isoToLocalInput(iso: string): string {
  const time = Date.parse(iso);
  if (!iso || Number.isNaN(time)) return '';
  const d = new Date(time);
  const base = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.getSeconds() || d.getMilliseconds() ? `${base}:${pad(d.getSeconds())}` : base;
}

/**
 * Stored date (timestamp or `YYYY-MM-DD`) -> `<input type="date">` value, read in UTC.
 *
 * @example
 * isoToDateInput('2024-05-01T00:00:00.000Z'); // '2024-05-01'
 */
export function isoToDateInput(value: string): string {
  const match = DATE_ONLY.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : '';
}

/**
 * True for the wire timestamp format `YYYY-MM-DDTHH:MM:SS.SSSZ`.
 *
 * @example
 * isTimestamp('2024-05-01T00:00:00.000Z'); // true
 */
export function isTimestamp(value: string): boolean {
  return TIMESTAMP.test(value);
}

/**
 * Compact counts for navigation badges.
 *
 * @example
 * formatCount(12_345); // '12,345'
 */
export function formatCount(count: number): string {
  return new Intl.NumberFormat().format(count);
}
