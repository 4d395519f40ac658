// React hooks over the tab's live events (lib/live-events.ts): keep the stream open while a page
// needs it, read who else has a record open, and say what this tab has open.
import { useEffect, useMemo, useSyncExternalStore } from 'react';

import type { RecordType } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { liveEvents, presenceIn, presenceOf } from './live-events.ts';
import { personLabel } from './person-label.ts';

const subscribe = (listener: () => void) => liveEvents.subscribe(listener);
const snapshot = () => liveEvents.snapshot();
const NOBODY: PresenceEntry[] = [];

/**
 * Keeps the tab's event stream open while the calling page is mounted.
 *
 * @example
 * useLiveEvents(); // in the records list and triage routes
 */
export function useLiveEvents(): void {
  useEffect(() => liveEvents.retain(), []);
}

/**
 * Who else has this record open, live (empty when nobody).
 *
 * @example
 * const others = usePresence('apps', 'tickets', 'SUP-1');
 */
export function usePresence(
  recordType: RecordType,
  alias: string,
  recordId: string,
): PresenceEntry[] {
  const all = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(
    () => presenceOf(all, recordType, alias, recordId) ?? NOBODY,
    [all, recordType, alias, recordId],
  );
}

/**
 * The records of one definition someone else has open: record id -> their entries.
 *
 * @example
 * const open = useRecordsWithPresence('apps', 'tickets');
 * open.get('SUP-1'); // [{ user: { name: 'Ana' }, editing: true, ... }]
 */
export function useRecordsWithPresence(
  recordType: RecordType,
  alias: string,
): Map<string, PresenceEntry[]> {
  const all = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(() => presenceIn(all, recordType, alias), [all, recordType, alias]);
}

/**
 * Tells the others this tab shows the record (until unmount or another record).
 *
 * @example
 * useAnnounceViewing({ recordType, alias, recordId: id });
 */
export function useAnnounceViewing(
  record: { recordType: RecordType; alias: string; recordId: string } | null,
): void {
  const recordType = record?.recordType;
  const alias = record?.alias;
  const recordId = record?.recordId;
  useEffect(() => {
    if (!recordType || alias === undefined || recordId === undefined) return;
    liveEvents.setViewing({ recordType, alias, recordId });
    return () => liveEvents.setViewing(null);
  }, [recordType, alias, recordId]);
}

/**
 * Tells the others this tab is editing the record it shows.
 *
 * @example
 * useAnnounceEditing(focused);
 */
export function useAnnounceEditing(editing: boolean): void {
  useEffect(() => {
    liveEvents.setEditing(editing);
    return () => liveEvents.setEditing(false);
  }, [editing]);
}

/**
 * What the others are doing, in words: "Ana is editing", "Ana is viewing and Bo is editing"; a
 * name typed at sign-in is marked "(unverified)".
 *
 * @example
 * describePresence(entries); // 'Ana is editing'
 */
export function describePresence(entries: readonly PresenceEntry[]): string {
  const byUser = new Map<string, { name: string; editing: boolean }>();
  for (const e of entries) {
    const seen = byUser.get(e.user.id);
    const name = personLabel(e.user.name, e.identity);
    byUser.set(e.user.id, { name, editing: (seen?.editing ?? false) || e.editing });
  }
  const parts = [...byUser.values()].map(
    (u) => `${u.name} is ${u.editing ? 'editing' : 'viewing'}`,
  );
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/**
 * The names of those editing, for the editor warning and the triage skip ("Ana"; an email typed
 * at sign-in marked "(unverified)").
 */
export function editorsOf(entries: readonly PresenceEntry[]): string[] {
  return [
    ...new Set(entries.filter((e) => e.editing).map((e) => personLabel(e.user.name, e.identity))),
  ];
}
