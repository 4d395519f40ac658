// How the record history's entries read: the source a change was made from, a value (empty shown
// as "empty"), the time relative to now, and entries grouped per change.
import type { HistoryEntry } from '@wsc/api-client/bff-history';

const SOURCES: Record<string, string> = {
  console: 'Console',
  editor: 'Editor',
  triage: 'Triage',
  create: 'New record',
  comments: 'Comments',
  'related-items': 'Related items',
  attachments: 'Attachments',
  watchers: 'Watchers',
  'bulk-run': 'Bulk run',
};

/**
 * The label of a change's source. A bulk run is named by the start of its id, as the bulk runs
 * list shows it.
 *
 * @example
 * sourceLabel('triage'); // 'Triage'
 * sourceLabel('undo:0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d'); // 'Undo of bulk run #0b9d4c1e'
 */
export function sourceLabel(source: string): string {
  const run = /^(bulk-run|undo):([0-9a-f]{8})/.exec(source);
  if (run) return run[1] === 'undo' ? `Undo of bulk run #${run[2]}` : `Bulk run #${run[2]}`;
  return SOURCES[source] ?? 'Console';
}

/**
 * A value as text, or undefined for none (shown as "empty").
 *
 * @example
 * valueText(''); // undefined
 * valueText(3); // '3'
 */
export function valueText(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/**
 * A time as "5 minutes ago", "yesterday", "just now".
 *
 * @example
 * relativeTime('2025-03-01T09:00:00Z', Date.parse('2025-03-01T09:05:00Z')); // '5 minutes ago'
 */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** The entries of one change (same `changeId`), in the order the page has them. */
export type ChangeGroup = { changeId: string; first: HistoryEntry; entries: HistoryEntry[] };

/**
 * Consecutive entries of one change as one group (a page is newest first, a change's rows are
 * adjacent).
 *
 * @example
 * groupChanges(entries).map((g) => g.entries.length); // [2, 1]
 */
export function groupChanges(entries: HistoryEntry[]): ChangeGroup[] {
  const groups: ChangeGroup[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last && last.changeId === entry.changeId) last.entries.push(entry);
    else groups.push({ changeId: entry.changeId, first: entry, entries: [entry] });
  }
  // Within a change, fields read in the order they were written.
  for (const group of groups) group.entries.reverse();
  return groups;
}

/** How far the API's clock may run ahead of the BFF's before a console change looks like an outside one. */
const CLOCK_SLACK_MS = 500;

/**
 * Where the record's own audit fields (`fields`: their names in this definition, see
 * lib/audit-fields.ts) name a change newer than the console's newest entry: the last change made
 * outside the console (the API has no history). A console change is stamped by the BFF after the
 * API answered, so its own `Updated At` is earlier; half a second of slack covers the two servers'
 * clocks drifting apart. Undefined when there is nothing to say.
 *
 * @example
 * outsideChange({ 'Updated At': '2025-03-02T10:00:00Z', 'Updated By': 'ops@example.com' }, { at: 'Updated At', by: 'Updated By' }, '2025-03-01T09:00:00Z');
 * // { at: '2025-03-02T10:00:00Z', by: 'ops@example.com' }
 */
export function outsideChange(
  record: Record<string, string>,
  fields: { at?: string | undefined; by?: string | undefined },
  newestConsoleChange: string | undefined,
): { at: string; by: string | undefined } | undefined {
  const at = fields.at ? record[fields.at] : undefined;
  if (!at || Number.isNaN(Date.parse(at))) return undefined;
  if (newestConsoleChange && Date.parse(at) <= Date.parse(newestConsoleChange) + CLOCK_SLACK_MS) {
    return undefined;
  }
  return { at, by: (fields.by && record[fields.by]) || undefined };
}
