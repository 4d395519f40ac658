/**
 * Maps over items with at most `limit` calls running at once, results in input order. Pages that
 * fan out (a user's groups read group by group) stay well inside the BFF's per-session limit of
 * requests in flight, which answers 429 past it.
 *
 * @example
 * const members = await mapLimit(groups, 4, (group) => api.listGroupMembers(group.id));
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
