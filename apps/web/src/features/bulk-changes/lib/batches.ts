// How a bulk run's records are grouped for reading again: one published search per batch,
// `<handle field>=in=(...)` with `first` = the batch's size.
import { inList, serialize } from '@wsc/rsql';

/** Records per re-read: the published search's default page, and the vendor CLI's batch. */
export const BATCH_SIZE = 100;

/** The API refuses filters over 4 KB; batches stay below with room for the handle field's name. */
export const MAX_FILTER_CHARS = 3_500;

/**
 * The RSQL filter that reads these records by handle.
 *
 * @example
 * handleFilter('Ticket ID', ['SUP-1', 'SUP-2']); // 'Ticket ID=in=(SUP-1,SUP-2)'
 */
export function handleFilter(handleField: string, ids: readonly string[]): string {
  return serialize(inList(handleField, [...ids]));
}

/**
 * Splits items into batches of at most {@link BATCH_SIZE} whose handle filter stays within
 * {@link MAX_FILTER_CHARS} (long handles make smaller batches), keeping their order.
 *
 * @example
 * handleBatches(items, 'id').map((batch) => batch.length); // [100, 100, 37]
 */
export function handleBatches<T extends { id: string }>(
  items: readonly T[],
  handleField: string,
  limits: { size?: number; chars?: number } = {},
): T[][] {
  const size = limits.size ?? BATCH_SIZE;
  const chars = limits.chars ?? MAX_FILTER_CHARS;
  const batches: T[][] = [];
  let current: T[] = [];
  for (const item of items) {
    const next = [...current, item];
    const fits =
      next.length <= size &&
      handleFilter(
        handleField,
        next.map((i) => i.id),
      ).length <= chars;
    if (fits || current.length === 0) current = next;
    else {
      batches.push(current);
      current = [item];
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
