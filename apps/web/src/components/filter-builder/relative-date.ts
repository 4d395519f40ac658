import type { ComparisonOperator, RelativeClock } from '@wsc/rsql';
import {
  describeRelativeDate,
  isRelativeDateText,
  parseRelativeDate,
  resolveRelativeDate,
} from '@wsc/rsql';

/**
 * What a date condition's value is, as the builder's "when" menu offers it: a specific date, or
 * one of the relative dates (ADR 0017). `custom` is a relative date written in text mode that no
 * menu entry produces (`{now-2h}`); it stays as written.
 */
export type DateValueKind =
  | 'exact'
  | 'now'
  | 'overdue'
  | 'today'
  | 'yesterday'
  | 'tomorrow'
  | 'thisWeek'
  | 'lastWeek'
  | 'nextWeek'
  | 'thisMonth'
  | 'lastMonth'
  | 'nextMonth'
  | 'lastDays'
  | 'nextDays'
  | 'daysAgo'
  | 'inDays'
  | 'custom';

/** The menu's entries in order; `count` marks those that take a number of days. */
export const DATE_VALUE_KINDS: readonly { kind: DateValueKind; label: string; count?: true }[] = [
  { kind: 'exact', label: 'Specific date' },
  { kind: 'now', label: 'Now' },
  { kind: 'overdue', label: 'Overdue (before now)' },
  { kind: 'today', label: 'Today' },
  { kind: 'yesterday', label: 'Yesterday' },
  { kind: 'tomorrow', label: 'Tomorrow' },
  { kind: 'thisWeek', label: 'This week' },
  { kind: 'lastWeek', label: 'Last week' },
  { kind: 'nextWeek', label: 'Next week' },
  { kind: 'thisMonth', label: 'This month' },
  { kind: 'lastMonth', label: 'Last month' },
  { kind: 'nextMonth', label: 'Next month' },
  { kind: 'lastDays', label: 'Last N days', count: true },
  { kind: 'nextDays', label: 'Next N days', count: true },
  { kind: 'daysAgo', label: 'N days ago', count: true },
  { kind: 'inDays', label: 'In N days', count: true },
];

/** A date value as the builder shows it: its kind and, for the counted kinds, the number. */
export interface DateValueChoice {
  kind: DateValueKind;
  days: number;
}

/**
 * Reads a condition value (with its operator: `{now}` under "before" is "overdue") into the menu.
 *
 * @example
 * dateValueChoice('{last7d}', '=='); // { kind: 'lastDays', days: 7 }
 * dateValueChoice('{now}', '=lt='); // { kind: 'overdue', days: 0 }
 */
export function dateValueChoice(value: string, operator: ComparisonOperator): DateValueChoice {
  if (!isRelativeDateText(value)) return { kind: 'exact', days: 0 };
  let date;
  try {
    date = parseRelativeDate(value);
  } catch {
    return { kind: 'custom', days: 0 };
  }
  switch (date.base) {
    case 'now':
      if (date.amount !== 0) return { kind: 'custom', days: 0 };
      return { kind: operator === '=lt=' ? 'overdue' : 'now', days: 0 };
    case 'today':
      if (date.amount === 0) return { kind: 'today', days: 0 };
      if (date.unit !== 'd') return { kind: 'custom', days: 0 };
      return { kind: date.amount < 0 ? 'daysAgo' : 'inDays', days: Math.abs(date.amount) };
    case 'last':
      return { kind: 'lastDays', days: date.days };
    case 'next':
      return { kind: 'nextDays', days: date.days };
    default:
      return { kind: date.base, days: 0 };
  }
}

/**
 * The value text of a menu choice; `exact` gives '' (a date is still to be picked) and `custom`
 * keeps `current`. `days` is clamped to what the grammar reads.
 *
 * @example
 * dateValueText({ kind: 'daysAgo', days: 3 }, ''); // '{today-3d}'
 */
export function dateValueText(choice: DateValueChoice, current: string): string {
  const days = Math.min(9999, Math.max(choice.kind === 'daysAgo' ? 0 : 1, Math.trunc(choice.days)));
  switch (choice.kind) {
    case 'exact':
      return '';
    case 'custom':
      return current;
    case 'now':
    case 'overdue':
      return '{now}';
    case 'lastDays':
      return `{last${days}d}`;
    case 'nextDays':
      return `{next${days}d}`;
    case 'daysAgo':
      return `{today-${days}d}`;
    case 'inDays':
      return `{today+${days}d}`;
    default:
      return `{${choice.kind}}`;
  }
}

/** The number a counted kind starts with when picked from the menu. */
export function defaultDays(kind: DateValueKind): number {
  return kind === 'lastDays' || kind === 'nextDays' ? 7 : 1;
}

/**
 * The days a relative value means right now, for the hint beside the menu; '' for anything else.
 *
 * @example
 * relativeDateHint('{thisWeek}', clock); // 'Mon 9 Mar – Sun 15 Mar 2026'
 */
export function relativeDateHint(value: string, clock: RelativeClock): string {
  if (!isRelativeDateText(value)) return '';
  try {
    const date = parseRelativeDate(value);
    const range = resolveRelativeDate(date, clock);
    if (range.instant) {
      if (date.base === 'now' && date.amount === 0) return 'the time of the search';
      return `${describeRelativeDate(date)}: ${range.start.toLocaleString(undefined, { timeZone: clock.timeZone, dateStyle: 'medium', timeStyle: 'short' })}`;
    }
    const format = (day: string) =>
      new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
        timeZone: 'UTC',
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      });
    return range.firstDay === range.lastDay
      ? format(range.firstDay)
      : `${format(range.firstDay)} – ${format(range.lastDay)}`;
  } catch {
    return '';
  }
}
