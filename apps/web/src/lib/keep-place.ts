// Keeping the user's place in a virtualized list of fixed-height rows while rows are merged in
// above it (the live queue, ADR 0025). Rows carry `data-row-id`; positions are worked out from
// indexes and the row height, so a row outside the rendered window can be held too.

/** The row held in place across a change of the rows, and its index before the change. */
export interface PlaceAnchor {
  id: string;
  index: number;
}

/**
 * The row to keep in place: the focused row, else the row under the pointer, else (once the list
 * is scrolled) the first visible row. At the very top with nothing focused or pointed at, nothing
 * is held, so rows merged there show up where the user is looking.
 *
 * @example
 * anchor.current = placeToKeep(scrollRef.current, rows.map((r) => r.id), ROW_HEIGHT);
 */
export function placeToKeep(
  element: HTMLElement | null,
  ids: readonly (string | undefined)[],
  rowHeight: number,
): PlaceAnchor | null {
  if (!element) return null;
  const active = document.activeElement;
  const focused = active && element.contains(active) ? active.closest('[data-row-id]') : null;
  const row = focused ?? element.querySelector('[data-row-id]:hover');
  const id = row?.getAttribute('data-row-id');
  if (id) return { id, index: ids.indexOf(id) };
  if (element.scrollTop <= 0) return null;
  const index = Math.min(Math.floor(element.scrollTop / rowHeight), ids.length - 1);
  const first = ids[index];
  return first === undefined ? null : { id: first, index };
}

/**
 * Scrolls `element` so that the held row stays where it was on screen after the rows changed:
 * by as many rows as were put above it.
 *
 * @example
 * useLayoutEffect(() => keepPlace(scrollRef.current, anchor.current, ids, ROW_HEIGHT), [rows]);
 */
export function keepPlace(
  element: HTMLElement | null,
  anchor: PlaceAnchor | null,
  ids: readonly (string | undefined)[],
  rowHeight: number,
): void {
  if (!element || !anchor || anchor.index < 0) return;
  const index = ids.indexOf(anchor.id);
  if (index >= 0 && index !== anchor.index) element.scrollTop += (index - anchor.index) * rowHeight;
}
