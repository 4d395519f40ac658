// What a reader of one record's history may not see of it (issue 26 L2): a related item's target
// belongs to a definition of its own, and a reader who may read the record may still be unable to
// see that definition (the agent and a refund). Its handle would tell them the target exists, so
// the per-record history masks it at read time, as the related-items list hides it.
import type { Definition } from '@wsc/api-client';
import type { HistoryEntry } from '@wsc/api-client/bff-history';
import { HIDDEN_RELATED_ITEM } from '@wsc/api-client/bff-history';

const RELATED = new Set<HistoryEntry['kind']>(['related-item-added', 'related-item-removed']);

/**
 * Whether a related item's target, as the history keeps it (`alias/HANDLE-n` when the write named
 * the alias, else `HANDLE-n`), is of a definition in `visible`. Unknown or malformed: no.
 *
 * @example
 * targetVisible('REF-1', [tickets]); // false (no definition with handle REF)
 * targetVisible('support-tickets/SUP-2', [tickets]); // true
 */
export function targetVisible(target: unknown, visible: readonly Definition[]): boolean {
  if (typeof target !== 'string' || target === '') return false;
  const slash = target.indexOf('/');
  if (slash > 0) {
    const alias = target.slice(0, slash);
    return visible.some((d) => d.alias === alias);
  }
  const dash = target.lastIndexOf('-');
  if (dash <= 0) return false;
  const handle = target.slice(0, dash);
  return visible.some((d) => d.handle !== '' && d.handle === handle);
}

/**
 * The entries with every related-item target the reader cannot see replaced by
 * {@link HIDDEN_RELATED_ITEM}. `visible` undefined (the definitions could not be read): every
 * target is masked; access closes when the check fails.
 *
 * @example
 * const shown = maskHiddenTargets(entries, await definitionsOf(session));
 */
export function maskHiddenTargets(
  entries: readonly HistoryEntry[],
  visible: readonly Definition[] | undefined,
): HistoryEntry[] {
  const mask = (value: unknown) =>
    value === null || (visible && targetVisible(value, visible)) ? value : HIDDEN_RELATED_ITEM;
  return entries.map((entry) =>
    RELATED.has(entry.kind)
      ? { ...entry, before: mask(entry.before), after: mask(entry.after) }
      : entry,
  );
}

/**
 * Whether any entry is a related-item change (only then are the reader's definitions needed).
 *
 * @example
 * if (hasRelatedItems(entries)) visible = await definitionsOf(session);
 */
export function hasRelatedItems(entries: readonly HistoryEntry[]): boolean {
  return entries.some((entry) => RELATED.has(entry.kind));
}
