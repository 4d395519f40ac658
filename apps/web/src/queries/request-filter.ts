import type { Field } from '@wsc/api-client';
import { isRsqlError, parse, resolveRelativeDates, serialize } from '@wsc/rsql';

/** The fields a filter is read against: names and types, enough to resolve relative dates. */
export type FilterFieldTypes = readonly Pick<Field, 'name' | 'type'>[];

/**
 * The filter as the API gets it: relative dates (`{today}`, `{last7d}`, `{now}`, ADR 0017)
 * resolved at `now` in the viewer's time zone: dates on DATE fields, UTC instants on DATETIME
 * fields. The URL, the cache key and saved views keep the relative text; only requests carry the
 * dates. Text that does not parse, or whose relative dates are invalid, goes as it is, so that
 * the API's 400 names the problem as for any other bad filter.
 *
 * @example
 * requestFilter('Due Date=={last7d}', definition.fields); // 'Due Date=ge=2026-03-05;Due Date=le=2026-03-11'
 */
export function requestFilter(
  filter: string | undefined,
  fields: FilterFieldTypes,
  now: Date = new Date(),
): string | undefined {
  if (!filter?.includes('{')) return filter || undefined;
  try {
    const node = parse(filter);
    const types = new Map(fields.map((f) => [f.name, f.type]));
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const resolved = resolveRelativeDates(node, (name) => types.get(name), { now, timeZone });
    return resolved === node ? filter : serialize(resolved);
  } catch (error) {
    if (isRsqlError(error)) return filter;
    throw error;
  }
}
