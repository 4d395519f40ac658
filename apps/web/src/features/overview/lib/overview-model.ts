// What the Overview charts of a definition: which fields it counts by, what "open" means, the
// filters behind every chart segment, and the 30 local days of the created-per-day line. Pure
// functions of the definition and the clock (ADR 0021).
import type { Definition, Field } from '@wsc/api-client';
import { and, eq, ge, inList, isNull, lt, serialize } from '@wsc/rsql';

/** Bars shown per field; a picklist with more values groups the rest as "Other values". */
export const MAX_BARS = 12;

/** The longest filter a records list link keeps (its URL schema's bound, ADR 0007). */
export const MAX_LINK_FILTER = 4096;

/** The days of the created-per-day line, today included. */
export const CREATED_DAYS = 30;

/** A picklist field's name says what it holds: status first, then severity. */
const STATUS_NAME = /\b(status|state|stage)\b/i;
const SEVERITY_NAME = /\b(severity|priority|urgency|impact)\b/i;

/**
 * Status values that end a record's life: a record is open while its status is none of these.
 * Matched as words anywhere in the value, so `Closed - Won` and `Won't fix` are closed too.
 */
const CLOSED_STATUS =
  /\b(closed|resolved|done|completed?|cancell?ed|rejected|declined|paid|archived|won't fix|duplicate)\b/i;

const picklists = (definition: Definition) =>
  definition.fields.filter(
    (f) => f.type === 'PICKLIST' && !f.readOnly && (f.values?.length ?? 0) > 0,
  );

/**
 * The definition's status field: the first single-value picklist (with values) named status,
 * state or stage. `undefined` when it has none: the Overview then shows no status chart and no
 * open records.
 *
 * @example
 * statusField(supportTickets)?.name; // 'Status'
 */
export function statusField(definition: Definition): Field | undefined {
  return picklists(definition).find((f) => STATUS_NAME.test(f.name));
}

/**
 * The definition's severity field: the first single-value picklist (with values) named severity,
 * priority, urgency or impact (a NUMBER `Priority` is not one).
 *
 * @example
 * severityField(supportTickets)?.name; // 'Severity'
 */
export function severityField(definition: Definition): Field | undefined {
  const status = statusField(definition);
  return picklists(definition).find((f) => f !== status && SEVERITY_NAME.test(f.name));
}

/**
 * The read-only date-time field set when a record is created: `Created At` (our API), `Created
 * on` (a hosted workspace description).
 *
 * @example
 * createdField(supportTickets)?.name; // 'Created At'
 */
export function createdField(definition: Definition): Field | undefined {
  return definition.fields.find(
    (f) => f.readOnly === true && f.type === 'DATETIME' && /^created\b/i.test(f.name),
  );
}

/**
 * Whether a status value closes a record (see {@link CLOSED_STATUS}).
 *
 * @example
 * isClosedStatus('Resolved'); // true
 * isClosedStatus('On Hold'); // false
 */
export function isClosedStatus(value: string): boolean {
  return CLOSED_STATUS.test(value);
}

/**
 * The status values that mean open, in picklist order.
 *
 * @example
 * openStatuses(statusField(tickets)); // ['New', 'Open', 'Pending', 'On Hold']
 */
export function openStatuses(field: Field): string[] {
  return (field.values ?? []).filter((value) => !isClosedStatus(value));
}

/**
 * The filter of a definition's open records, or `undefined` when every status is closed (or the
 * field has no values).
 *
 * @example
 * openFilter(statusField(tickets)); // 'Status=in=(New,Open,Pending,"On Hold")'
 */
export function openFilter(field: Field): string | undefined {
  const open = openStatuses(field);
  return open.length === 0 ? undefined : serialize(inList(field.name, open));
}

/** One bar of a field chart: its label, and the filter that selects its records. */
export interface Bar {
  label: string;
  filter: string;
  /** True for the "Not set" bar: counted only when the values leave records out. */
  unset?: boolean;
}

/**
 * The bars of a picklist field: one per value (at most {@link MAX_BARS}; further values share an
 * "Other values" bar, unless its filter is too long for a link), and "Not set" last.
 *
 * @example
 * fieldBars({ name: 'Severity', type: 'PICKLIST', values: ['Low', 'High'] });
 * // [{ label: 'Low', filter: 'Severity==Low' }, { label: 'High', filter: 'Severity==High' },
 * //  { label: 'Not set', filter: 'Severity==null', unset: true }]
 */
export function fieldBars(field: Field): Bar[] {
  const values = field.values ?? [];
  const shown = values.length > MAX_BARS ? values.slice(0, MAX_BARS - 1) : values;
  const rest = values.slice(shown.length);
  const bars: Bar[] = shown.map((value) => ({
    label: value,
    filter: serialize(eq(field.name, value)),
  }));
  const other = rest.length > 0 ? serialize(inList(field.name, rest)) : undefined;
  // A list link drops a longer filter, so such a bar would open the wrong list: left out.
  if (other !== undefined && other.length <= MAX_LINK_FILTER) {
    bars.push({ label: 'Other values', filter: other });
  }
  bars.push({ label: 'Not set', filter: serialize(isNull(field.name)), unset: true });
  return bars;
}

/** One local calendar day of the created-per-day line. */
export interface Day {
  /** `YYYY-MM-DD` in the viewer's time zone. */
  key: string;
  /** Midnight starting the day, and the next day's, as UTC timestamps. */
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The last `days` calendar days in the viewer's time zone, oldest first, today last. Each starts at
 * local midnight, so a day across a daylight-saving change is 23 or 25 hours long.
 *
 * @example
 * lastDays(new Date('2026-11-24T10:00:00Z'), 2); // in Europe/Paris:
 * // [{ key: '2026-11-23', start: '2026-11-22T23:00:00.000Z', end: '2026-11-23T23:00:00.000Z' },
 * //  { key: '2026-11-24', start: '2026-11-23T23:00:00.000Z', end: '2026-11-24T23:00:00.000Z' }]
 */
export function lastDays(now: Date, days = CREATED_DAYS): Day[] {
  const result: Day[] = [];
  for (let i = days - 1; i >= 0; i -= 1) {
    const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i);
    const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i + 1);
    result.push({
      key: `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`,
      start: start.toISOString(),
      end: end.toISOString(),
    });
  }
  return result;
}

/**
 * The filter of records created in `[start, end)`.
 *
 * @example
 * createdBetween('Created At', day.start, day.end);
 * // 'Created At=ge=2026-11-22T23:00:00.000Z;Created At=lt=2026-11-23T23:00:00.000Z'
 */
export function createdBetween(field: string, start: string, end: string): string {
  return serialize(and(ge(field, start), lt(field, end)));
}

/**
 * Counts timestamps per day; timestamps outside every day (or unparseable) are left out.
 *
 * @example
 * countByDay(['2026-11-24T08:00:00.000Z'], lastDays(now, 1)); // [1]
 */
export function countByDay(timestamps: readonly string[], days: readonly Day[]): number[] {
  const counts = days.map(() => 0);
  const bounds = days.map((day) => [Date.parse(day.start), Date.parse(day.end)] as const);
  for (const value of timestamps) {
    const time = Date.parse(value);
    if (Number.isNaN(time)) continue;
    const index = bounds.findIndex(([start, end]) => time >= start && time < end);
    if (index >= 0) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}
