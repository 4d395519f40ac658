// Calendar dates and UTC date-times as the API reads and writes them (record values, filters).

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Whether `YYYY-MM-DD` names a real calendar day.
 *
 * @example
 * isValidDate('2024-02-30'); // false
 */
export function isValidDate(value: string): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Normalizes a datetime to `YYYY-MM-DDTHH:MM:SS.SSSZ` (accepts a bare date as midnight UTC and
 * fewer fraction digits), or undefined when it is not one.
 *
 * @example
 * normalizeDateTime('2024-05-01'); // '2024-05-01T00:00:00.000Z'
 */
export function normalizeDateTime(value: string): string | undefined {
  if (isValidDate(value)) return `${value}T00:00:00.000Z`;
  if (!DATETIME_RE.exec(value)) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  // Reject rollovers such as 24:00:00 or 02-30: the normalized text must agree on date and time.
  return iso.slice(0, 19) === value.slice(0, 19) ? iso : undefined;
}
