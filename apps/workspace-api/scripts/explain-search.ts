// Prints EXPLAIN ANALYZE of a typical triage search on N generated tickets, to check that the
// per-definition indexes are used. Usage: DATABASE_URL=postgres://... tsx scripts/explain-search.ts 50000
import { sql } from 'kysely';

import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { recordFieldResolver } from '../src/search/fields.ts';
import { compileFilter } from '../src/search/filter.ts';
import { orderByClause } from '../src/search/sort.ts';
import { loadWorkspace } from '../src/workspace/load-workspace.ts';
import { syncWorkspace } from '../src/workspace/sync.ts';

const count = Number(process.argv[2] ?? 20_000);
const schema = 'explain_search';
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  schema: process.env.DATABASE_URL ? schema : undefined,
});
const { db } = database;
await migrateToLatest(db);
const workspace = await loadWorkspace();
await syncWorkspace(db, workspace, database);
const definition = workspace.find('apps', 'support-tickets');
if (!definition) throw new Error('no support-tickets');
const existing = await db
  .selectFrom('records')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
if (Number(existing.n) < count) {
  const statuses = ['New', 'Open', 'Pending', 'On Hold', 'Resolved', 'Closed'];
  const severities = ['Low', 'Medium', 'High', 'Critical'];
  for (let start = Number(existing.n); start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => {
      const n = start + i + 1;
      const at = new Date(Date.UTC(2024, 0, 1) + n * 60_000);
      return {
        id: `SUP-${n}`,
        record_type: 'apps' as const,
        alias: 'support-tickets',
        data: JSON.stringify({
          Title: `Ticket ${n} about printer ${n % 97}`,
          Status: statuses[n % statuses.length],
          Severity: severities[n % severities.length],
          Priority: String(n % 5),
          Assignee: `agent${n % 60}@example.com`,
          'Due Date': at.toISOString().slice(0, 10),
        }),
        created_at: at,
        created_by: 'seed@example.com',
        updated_at: at,
        updated_by: 'seed@example.com',
      };
    });
    await db.insertInto('records').values(rows).execute();
  }
  await sql`analyze records`.execute(db);
}
const where = compileFilter(
  'Status=in=(New,Open);Severity==Critical;Assignee==agent7@example.com',
  recordFieldResolver(definition),
);
const query = db
  .selectFrom('records')
  .selectAll()
  .where('alias', '=', definition.alias)
  .where(where)
  .orderBy(orderByClause([], false, sql.ref('records.seq')))
  .limit(101)
  .compile();
// EXPLAIN through the driver, with the same bound parameters the API sends.
const explained = await db.executeQuery({ ...query, sql: `explain analyze ${query.sql}` });
for (const row of explained.rows as Array<Record<string, string>>)
  console.log(Object.values(row)[0]);
await database.close();
