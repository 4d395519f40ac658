// A finer sample for the planner's estimates of `data @> {"F": v}` (ADR 0003, revision 2).
// PostgreSQL estimates containment from the column's histogram of whole `data` objects; with the
// default target of 100 buckets a value held by 5% of the records can be estimated anywhere from
// 1% to 10%, which decided between a good and a 4x slower plan for a date range plus equality at
// 1M records. 1,000 buckets (ANALYZE samples 300,000 rows) keep the estimates within a few
// percent, at about 10 s per ANALYZE of 1M records.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table records alter column data set statistics 1000`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table records alter column data set statistics -1`.execute(db);
}
