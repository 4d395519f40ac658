import type { ComparisonNode, ComparisonOperator, Node, Value } from './ast.ts';
import { RsqlError } from './errors.ts';
import { DEFAULT_PARSE_OPTIONS } from './options.ts';
import { comparisons } from './walk.ts';

/**
 * Relative dates: values such as `{today}`, `{last7d}` or `{now}` that a filter keeps in its text
 * (so links and saved views stay relative) and that are turned into real dates only when the
 * request is built, in the viewer's time zone (ADR 0017).
 *
 * Grammar (inside the braces, no whitespace, case-sensitive; `N` is 1 to 4 digits):
 *
 *     now                  the current instant        now+Nh  now-Nd  now+Nw  (hours, days, weeks)
 *     today                the current day            today-Nd  today+Nw  (days, weeks)
 *     yesterday  tomorrow  one day
 *     thisWeek  lastWeek  nextWeek      Monday to Sunday (ISO weeks)
 *     thisMonth lastMonth nextMonth     the calendar month
 *     lastNd               the N days ending today    (`last7d`: today and the 6 days before)
 *     nextNd               the N days starting today  (`next7d`: today and the 6 days after)
 *
 * A value is relative when it starts with `{` and the field is a DATE or DATETIME field; other
 * fields keep such text as it is.
 */
export type RelativeDate =
  | { base: 'now'; amount: number; unit: 'h' | 'd' | 'w' }
  | { base: 'today'; amount: number; unit: 'd' | 'w' }
  | {
      base:
        | 'yesterday'
        | 'tomorrow'
        | 'thisWeek'
        | 'lastWeek'
        | 'nextWeek'
        | 'thisMonth'
        | 'lastMonth'
        | 'nextMonth';
    }
  | { base: 'last' | 'next'; days: number };

/** When and where relative dates are resolved: the clock and an IANA time zone. */
export interface RelativeClock {
  now: Date;
  timeZone: string;
}

/** A relative date in a time zone: its first and last day, and the instants it spans. */
export interface ResolvedRange {
  /** `YYYY-MM-DD`: the first day (for `now`, the day of the instant). */
  firstDay: string;
  /** `YYYY-MM-DD`: the last day, inclusive. */
  lastDay: string;
  /** The first instant. */
  start: Date;
  /** The first instant after the range (for `now` and its offsets, the instant itself). */
  end: Date;
  /** True for `now` and its offsets: an instant rather than whole days. */
  instant: boolean;
}

const SIMPLE = [
  'yesterday',
  'tomorrow',
  'thisWeek',
  'lastWeek',
  'nextWeek',
  'thisMonth',
  'lastMonth',
  'nextMonth',
] as const;
const WORDS = ['now', 'today', ...SIMPLE, 'last', 'next'] as const;
const MAX_DIGITS = 4;

/**
 * Whether a value is written as a relative date (it starts with `{`); whether it is a valid one
 * is for `parseRelativeDate` to say.
 *
 * @example
 * isRelativeDateText('{today}'); // true
 * isRelativeDateText('2026-01-31'); // false
 */
export function isRelativeDateText(value: Value): value is string {
  return typeof value === 'string' && value.startsWith('{');
}

/**
 * Reads one relative date such as `{today-7d}`. Throws `RsqlError` (code
 * `INVALID_RELATIVE_DATE`) whose `position` is the offset of the offending character in `text`.
 *
 * @example
 * parseRelativeDate('{last7d}'); // { base: 'last', days: 7 }
 * parseRelativeDate('{today-3x}'); // throws: position 8
 */
export function parseRelativeDate(text: string): RelativeDate {
  const fail = (position: number, what: string): never => {
    throw new RsqlError(
      'INVALID_RELATIVE_DATE',
      position,
      [],
      `${what} at position ${position} of relative date '${text}'`,
    );
  };
  if (!text.startsWith('{')) fail(0, "Expected '{'");
  let pos = 1;
  while (pos < text.length && isLetter(text.charCodeAt(pos))) pos++;
  const word = text.slice(1, pos);
  if (!(WORDS as readonly string[]).includes(word)) {
    fail(
      1,
      `Unknown relative date '${word}' (expected now, today, yesterday, tomorrow, thisWeek, lastWeek, nextWeek, thisMonth, lastMonth, nextMonth, lastNd or nextNd)`,
    );
  }

  const readNumber = (min: number): number => {
    const start = pos;
    while (pos < text.length && isDigit(text.charCodeAt(pos))) {
      if (pos - start >= MAX_DIGITS) fail(pos, `At most ${MAX_DIGITS} digits are allowed`);
      pos++;
    }
    if (pos === start) fail(pos, 'Expected a number');
    const value = Number(text.slice(start, pos));
    if (value < min) fail(start, `Expected a number of at least ${min}`);
    return value;
  };
  const readUnit = <U extends string>(units: readonly U[]): U => {
    const unit = text.charAt(pos) as U;
    if (!units.includes(unit)) {
      const list = units.map((u) => `'${u}'`).join(', ');
      fail(pos, `Expected a unit (${list})`);
    }
    pos++;
    return unit;
  };
  const close = () => {
    if (pos >= text.length) fail(pos, "Expected '}' but the value ended");
    if (text.charAt(pos) !== '}') fail(pos, "Expected '}'");
    if (pos + 1 < text.length) fail(pos + 1, "Unexpected text after '}'");
  };

  let result: RelativeDate;
  if (word === 'now' || word === 'today') {
    const sign = text.charAt(pos);
    const signed = sign === '+' || sign === '-';
    if (signed) pos++;
    // Without a sign the offset is zero; `today` only moves by whole days and weeks.
    const amount = signed ? readNumber(0) * (sign === '-' ? -1 : 1) : 0;
    if (word === 'now') {
      result = { base: 'now', amount, unit: signed ? readUnit(['h', 'd', 'w'] as const) : 'd' };
    } else {
      result = { base: 'today', amount, unit: signed ? readUnit(['d', 'w'] as const) : 'd' };
    }
  } else if (word === 'last' || word === 'next') {
    const days = readNumber(1);
    readUnit(['d'] as const);
    result = { base: word, days };
  } else {
    result = { base: word as (typeof SIMPLE)[number] };
  }
  close();
  return result;
}

/**
 * The canonical text of a relative date; `parseRelativeDate(formatRelativeDate(r))` equals `r`.
 *
 * @example
 * formatRelativeDate({ base: 'today', amount: -7, unit: 'd' }); // '{today-7d}'
 */
export function formatRelativeDate(date: RelativeDate): string {
  switch (date.base) {
    case 'now':
    case 'today':
      return date.amount === 0
        ? `{${date.base}}`
        : `{${date.base}${date.amount < 0 ? '-' : '+'}${Math.abs(date.amount)}${date.unit}}`;
    case 'last':
    case 'next':
      return `{${date.base}${date.days}d}`;
    default:
      return `{${date.base}}`;
  }
}

/**
 * What a relative date means, in words, for labels and summaries.
 *
 * @example
 * describeRelativeDate({ base: 'last', days: 7 }); // 'last 7 days'
 * describeRelativeDate({ base: 'today', amount: -3, unit: 'd' }); // '3 days ago'
 * describeRelativeDate({ base: 'now', amount: -2, unit: 'h' }); // '2 hours before now'
 */
export function describeRelativeDate(date: RelativeDate): string {
  switch (date.base) {
    case 'now':
    case 'today': {
      if (date.amount === 0) return date.base;
      const unit = { h: 'hour', d: 'day', w: 'week' }[date.unit];
      const count = Math.abs(date.amount);
      const span = `${count} ${unit}${count === 1 ? '' : 's'}`;
      if (date.base === 'now') return `${span} ${date.amount < 0 ? 'before' : 'after'} now`;
      return date.amount < 0 ? `${span} ago` : `in ${span}`;
    }
    case 'last':
    case 'next':
      return `${date.base} ${date.days} day${date.days === 1 ? '' : 's'}`;
    default:
      return date.base.replace(/[A-Z]/, (c) => ` ${c.toLowerCase()}`);
  }
}

const DAY_MS = 86_400_000;

/**
 * The days and instants a relative date covers at `clock.now` in `clock.timeZone`. Weeks start on
 * Monday. Days are civil days of the zone, so a day can last 23 or 25 hours, and a day whose
 * midnight falls in a daylight-saving gap starts at the first instant after the gap.
 *
 * @example
 * resolveRelativeDate({ base: 'last', days: 7 }, { now: new Date('2026-03-10T12:00:00Z'), timeZone: 'UTC' });
 * // { firstDay: '2026-03-04', lastDay: '2026-03-10', start: 2026-03-04T00:00Z, end: 2026-03-11T00:00Z, instant: false }
 */
export function resolveRelativeDate(date: RelativeDate, clock: RelativeClock): ResolvedRange {
  const nowMs = clock.now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError('The clock has no valid time');
  if (date.base === 'now') {
    const step = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[date.unit];
    const at = nowMs + date.amount * step;
    const day = isoDay(civilDayAt(at, clock.timeZone));
    return { firstDay: day, lastDay: day, start: new Date(at), end: new Date(at), instant: true };
  }
  const today = civilDayAt(nowMs, clock.timeZone);
  const [first, last] = dayRange(date, today);
  return {
    firstDay: isoDay(first),
    lastDay: isoDay(last),
    start: new Date(startOfDay(first, clock.timeZone)),
    end: new Date(startOfDay(last + 1, clock.timeZone)),
    instant: false,
  };
}

/** First and last civil day (days since 1970-01-01) of a day-based relative date. */
function dayRange(date: Exclude<RelativeDate, { base: 'now' }>, today: number): [number, number] {
  const monday = today - ((new Date(today * DAY_MS).getUTCDay() + 6) % 7);
  const month = (shift: number): [number, number] => {
    const d = new Date(today * DAY_MS);
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth() + shift;
    return [Date.UTC(y, m, 1) / DAY_MS, Date.UTC(y, m + 1, 1) / DAY_MS - 1];
  };
  switch (date.base) {
    case 'today': {
      const day = today + date.amount * (date.unit === 'w' ? 7 : 1);
      return [day, day];
    }
    case 'yesterday':
      return [today - 1, today - 1];
    case 'tomorrow':
      return [today + 1, today + 1];
    case 'thisWeek':
      return [monday, monday + 6];
    case 'lastWeek':
      return [monday - 7, monday - 1];
    case 'nextWeek':
      return [monday + 7, monday + 13];
    case 'thisMonth':
      return month(0);
    case 'lastMonth':
      return month(-1);
    case 'nextMonth':
      return month(1);
    case 'last':
      return [today - date.days + 1, today];
    case 'next':
      return [today, today + date.days - 1];
  }
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in a zone, as if they were UTC, minus the instant. */
function offsetAt(ms: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The civil day (days since 1970-01-01) of an instant in a zone. */
function civilDayAt(ms: number, timeZone: string): number {
  return Math.floor((ms + offsetAt(ms, timeZone)) / DAY_MS);
}

/**
 * The first instant of a civil day in a zone. Local midnight can exist twice (the earlier wins)
 * or not at all (a gap: the day starts where the gap ends). The offsets 14 hours either side of
 * midnight bracket any transition that can touch it.
 */
function startOfDay(day: number, timeZone: string): number {
  const wall = day * DAY_MS;
  const offsets = new Set([
    offsetAt(wall - 14 * 3_600_000, timeZone),
    offsetAt(wall, timeZone),
    offsetAt(wall + 14 * 3_600_000, timeZone),
  ]);
  const candidates = [...offsets].map((offset) => wall - offset);
  const valid = candidates.filter((c) => wall - c === offsetAt(c, timeZone));
  return valid.length > 0 ? Math.min(...valid) : Math.max(...candidates);
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A field's type by its selector, or `undefined` for a field the caller does not know. */
export type FieldTypeOf = (selector: string) => string | undefined;

function isDateType(type: string | undefined): type is 'DATE' | 'DATETIME' {
  return type === 'DATE' || type === 'DATETIME';
}

const SINGLE: ReadonlySet<ComparisonOperator> = new Set([
  '==',
  '!=',
  '=gt=',
  '=ge=',
  '=lt=',
  '=le=',
]);
const BETWEEN: ReadonlySet<ComparisonOperator> = new Set(['=bt=', '!bt=', '=nbt=']);

/**
 * Checks every relative date of a parsed filter against the grammar and its operator, so that
 * text mode can point at the character. `input` is the text `node` was parsed from (its spans
 * index it). Throws `RsqlError` with the position in `input`.
 *
 * @example
 * const text = 'Due Date=ge={lastt7d}';
 * checkRelativeDates(parse(text), text, () => 'DATE'); // throws: position 13
 */
export function checkRelativeDates(node: Node, input: string, typeOf: FieldTypeOf): void {
  for (const comparison of comparisons(node)) {
    if (!isDateType(typeOf(comparison.selector))) continue;
    comparison.values.forEach((value, index) => {
      if (!isRelativeDateText(value)) return;
      const span = comparison.valueSpans[index];
      const quoted = span !== undefined && (input[span.start] === "'" || input[span.start] === '"');
      const base = (span?.start ?? 0) + (quoted ? 1 : 0);
      try {
        parseRelativeDate(value);
      } catch (error) {
        if (!(error instanceof RsqlError)) throw error;
        const position = base + error.position;
        throw new RsqlError(
          'INVALID_RELATIVE_DATE',
          position,
          [],
          error.message.replace(/at position \d+ of/, `at position ${position}, in`),
        );
      }
      if (!SINGLE.has(comparison.operator) && !BETWEEN.has(comparison.operator)) {
        throw new RsqlError(
          'INVALID_RELATIVE_DATE',
          base,
          [],
          `Relative date '${value}' at position ${base} cannot be used with '${comparison.operator}' (use a comparison or between)`,
        );
      }
    });
  }
}

/**
 * The filter with every relative date replaced by real dates at `clock`: dates (`YYYY-MM-DD`) on
 * DATE fields, UTC instants (`toISOString`) on DATETIME fields. A relative date that spans days
 * turns `==` into two comparisons ANDed (`>=` first, `<=` last day / `<` the next day's start),
 * `!=` into `!bt=`, and the bounds of the others into the first or last day, so the result is
 * valid in the hosted dialect too. Filters without relative dates come back unchanged (the same
 * object). Throws `RsqlError` for an invalid relative date (positions as in `checkRelativeDates`
 * when the spans are known) and `TOO_MANY_COMPARISONS` when the expansion passes the limit.
 *
 * @example
 * resolveRelativeDates(parse('Due Date=={last7d}'), () => 'DATE', clock);
 * // Due Date=ge=2026-03-04;Due Date=le=2026-03-10
 */
export function resolveRelativeDates(
  node: Node,
  typeOf: FieldTypeOf,
  clock: RelativeClock,
  maxComparisons: number = DEFAULT_PARSE_OPTIONS.maxComparisons,
): Node {
  let count = 0;
  const visit = (current: Node): Node => {
    if (current.type !== 'comparison') {
      const children = current.children.map(visit);
      const changed = children.some((child, i) => child !== current.children[i]);
      if (!changed) return current;
      // An expanded `and` inside an `and` flattens, as `parse` would read it.
      const flat = children.flatMap((child) =>
        child.type === current.type ? child.children : [child],
      );
      return { ...current, children: flat };
    }
    const resolved = resolveComparison(current, typeOf(current.selector), clock);
    count += resolved.type === 'comparison' ? 1 : resolved.children.length;
    return resolved;
  };
  const result = visit(node);
  if (count > maxComparisons) {
    throw new RsqlError(
      'TOO_MANY_COMPARISONS',
      0,
      [],
      `With its relative dates resolved the filter has ${count} comparisons, over the limit of ${maxComparisons}`,
    );
  }
  return result;
}

function resolveComparison(
  node: ComparisonNode,
  type: string | undefined,
  clock: RelativeClock,
): Node {
  if (!isDateType(type) || !node.values.some(isRelativeDateText)) return node;
  const ranges = node.values.map((value) =>
    isRelativeDateText(value) ? resolveRelativeDate(parseRelativeDate(value), clock) : value,
  );
  const dates = type === 'DATE';
  const low = (r: ResolvedRange | Value): Value =>
    typeof r === 'object' && r !== null ? (dates ? r.firstDay : r.start.toISOString()) : r;
  // The last value inside the range, inclusive (for instants: the last millisecond).
  const high = (r: ResolvedRange | Value): Value => {
    if (typeof r !== 'object' || r === null) return r;
    if (dates) return r.lastDay;
    return r.instant ? r.end.toISOString() : new Date(r.end.getTime() - 1).toISOString();
  };
  // The first value after the range, for DATETIME bounds written with `<` / `>=`.
  const after = (r: ResolvedRange): string => r.end.toISOString();
  const single = (operator: ComparisonOperator, value: Value): ComparisonNode => ({
    ...node,
    operator,
    values: [value],
    valueSpans: node.valueSpans.slice(0, 1),
  });

  if (BETWEEN.has(node.operator)) {
    const [from, to] = ranges;
    return { ...node, values: [low(from ?? null), high(to ?? null)] };
  }
  const [range] = ranges;
  if (range === undefined || typeof range !== 'object' || range === null) return node;
  if (!SINGLE.has(node.operator)) {
    const position = node.valueSpans[0]?.start ?? 0;
    throw new RsqlError(
      'INVALID_RELATIVE_DATE',
      position,
      [],
      `Relative dates cannot be used with '${node.operator}' (use a comparison or between)`,
    );
  }
  const oneValue = dates ? range.firstDay === range.lastDay : range.instant;
  switch (node.operator) {
    case '==':
      if (oneValue) return single('==', low(range));
      return {
        type: 'and',
        children: [
          single('=ge=', low(range)),
          dates ? single('=le=', high(range)) : single('=lt=', after(range)),
        ],
        span: node.span,
      };
    case '!=':
      if (oneValue) return single('!=', low(range));
      return { ...node, operator: '!bt=', values: [low(range), high(range)] };
    case '=lt=':
    case '=ge=':
      return single(node.operator, low(range));
    case '=le=':
      return dates || range.instant ? single('=le=', high(range)) : single('=lt=', after(range));
    default: // '=gt='
      return dates || range.instant ? single('=gt=', high(range)) : single('=ge=', after(range));
  }
}
