// What each stream of a region is told when the region's presence changed (ADR 0023, 0027). The
// changes are grouped by definition once; a stream then takes the groups of the definitions it
// may see, less its own person's entries. Streams that see the same changed definitions and own
// none of the changed entries get the very same text, built once: the work grows with the
// definitions changed and the kinds of viewers, not with streams times changes.
import type { PresenceEntry, PresenceEvent } from '@wsc/api-client/bff-events';

import { definitionKey } from '../../lib/visible-definitions.ts';

/** A presence entry with the person it belongs to (never sent). */
export type Entry = PresenceEntry & { userId: string };

type Group = { upserts: Entry[]; removed: Entry[]; people: Set<string> };

/**
 * The changes between two pictures of a region (connection id -> entry), grouped by definition:
 * a new or changed entry is an upsert in its definition; one gone, or moved to another
 * definition, is removed from the definition it was in.
 *
 * @example
 * const groups = changesByDefinition(before, after, sameEntry);
 */
export function changesByDefinition(
  prev: ReadonlyMap<string, Entry>,
  next: ReadonlyMap<string, Entry>,
  same: (a: Entry, b: Entry) => boolean,
): Map<string, Group> {
  const groups = new Map<string, Group>();
  const group = (entry: Entry) => {
    const key = definitionKey(entry.recordType, entry.alias);
    let found = groups.get(key);
    if (!found) {
      found = { upserts: [], removed: [], people: new Set() };
      groups.set(key, found);
    }
    found.people.add(entry.userId);
    return found;
  };
  for (const [id, entry] of next) {
    const before = prev.get(id);
    if (before && same(before, entry)) continue;
    group(entry).upserts.push(entry);
    if (
      before &&
      definitionKey(before.recordType, before.alias) !==
        definitionKey(entry.recordType, entry.alias)
    ) {
      group(before).removed.push(before);
    }
  }
  for (const [id, before] of prev) if (!next.has(id)) group(before).removed.push(before);
  return groups;
}

/**
 * The fan-out of one change of a region: `eventFor` gives a stream's text (or undefined when it
 * has nothing to hear), built once per kind of viewer.
 *
 * @example
 * const fanOut = presenceFanOut(groups, publicEntry, (delta) => event('presence', delta));
 * for (const s of streams) { const text = fanOut.eventFor(keysOf(s), s.session.ownerId); if (text) write(s, text); }
 */
export function presenceFanOut(
  groups: ReadonlyMap<string, Group>,
  publicEntry: (entry: Entry) => PresenceEntry,
  render: (delta: PresenceEvent) => string,
) {
  const built = new Map<string, string | undefined>();
  const build = (keys: string[], ownerId: string): string | undefined => {
    const upserts: PresenceEntry[] = [];
    const upserted = new Set<string>();
    const removed: string[] = [];
    for (const key of keys) {
      for (const entry of groups.get(key)?.upserts ?? []) {
        if (entry.userId === ownerId) continue;
        upserts.push(publicEntry(entry));
        upserted.add(entry.connectionId);
      }
    }
    for (const key of keys) {
      for (const entry of groups.get(key)?.removed ?? []) {
        // Moved into a definition this stream also sees: an upsert already says where it is.
        if (entry.userId !== ownerId && !upserted.has(entry.connectionId)) {
          removed.push(entry.connectionId);
        }
      }
    }
    if (upserts.length === 0 && removed.length === 0) return undefined;
    return render({ kind: 'delta', upserts, removed });
  };
  return {
    /** Whether anything changed at all. */
    empty: groups.size === 0,
    eventFor(visible: ReadonlySet<string> | undefined, ownerId: string): string | undefined {
      if (!visible) return undefined;
      const keys = [...groups.keys()].filter((key) => visible.has(key));
      if (keys.length === 0) return undefined;
      // The viewer's own entries are left out: only a viewer with some in these groups differs.
      const own = keys.some((key) => groups.get(key)?.people.has(ownerId));
      const memo = `${keys.join('\n')}\u0000${own ? ownerId : ''}`;
      if (!built.has(memo)) built.set(memo, build(keys, ownerId));
      return built.get(memo);
    },
  };
}
