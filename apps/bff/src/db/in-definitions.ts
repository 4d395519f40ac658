// A WHERE condition on a table's `record_type` and `alias` columns: only rows of these
// definitions (the ones a session may see, lib/visible-definitions.ts). None: no row.
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';

/**
 * `(record_type, alias) in ((...), ...)`, or `false` for an empty list.
 *
 * @example
 * query.where(inDefinitions([{ recordType: 'apps', alias: 'support-tickets' }]));
 */
export function inDefinitions(
  definitions: readonly { recordType: string; alias: string }[],
): RawBuilder<boolean> {
  if (definitions.length === 0) return sql<boolean>`false`;
  const pairs = definitions.map((d) => sql`(${d.recordType}, ${d.alias})`);
  return sql<boolean>`(record_type, alias) in (${sql.join(pairs)})`;
}
