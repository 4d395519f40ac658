// Prints EXPLAIN (ANALYZE, BUFFERS) of the SQL the API runs for each triage search (page and
// total), against a seeded database: the tool used to diagnose the plans in docs/benchmarks.md.
// CLI: pnpm --filter bench explain -- (--database-url postgres://... | --data-dir DIR) [--only NAME]
//   [--ensure-indexes]
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import { ensureDefinitionIndexes, loadWorkspace, openDatabase } from 'workspace-api/tools';

import { triageQueries } from './api-search.ts';
import { searchSql } from './lib/search-sql.ts';
import { sampleValues } from './seed-records.ts';

/** A compiled query with its parameters inlined as literals (for EXPLAIN only; bench input). */
function inline(query: CompiledQuery): string {
  return query.sql.replace(/\$(\d+)/g, (_, index: string) => {
    const value = query.parameters[Number(index) - 1];
    if (typeof value === 'number') return String(value);
    return `'${String(value).replaceAll("'", "''")}'`;
  });
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      only: { type: 'string' },
      agent: { type: 'string' },
      customer: { type: 'string' },
      // Create/drop per-definition indexes as the API's start-up would (after an index change).
      'ensure-indexes': { type: 'boolean', default: false },
    },
  });
  const handle = values['database-url']
    ? await openDatabase({ databaseUrl: values['database-url'], poolSize: 1 })
    : await openDatabase({ pgliteDir: path.join(path.resolve(values['data-dir'] ?? ''), 'pg') });
  try {
    const workspace = await loadWorkspace();
    const definition = workspace.find('apps', 'support-tickets');
    if (!definition) throw new Error('support-tickets missing from the demo workspace');
    if (values['ensure-indexes']) {
      await ensureDefinitionIndexes(handle.db, workspace.definitions, handle);
      await sql`analyze records`.execute(handle.db);
    }
    // The most frequent assignee and customer, as the seed's sample gives them to api-search.
    const sample = await sampleValues(handle.db);
    const agent = values.agent ?? sample.agents[0] ?? '';
    const customer = values.customer ?? sample.customers[0] ?? '';
    for (const query of triageQueries({ agent, customer }, new Date())) {
      if (values.only && !query.name.includes(values.only)) continue;
      const request = { definition, filter: query.filter, sort: query.sort ?? '', first: 100 };
      const statements = await searchSql(handle.db, request, handle);
      const compiledStatements =
        statements.kind === 'single'
          ? ([['page + total', statements.query]] as const)
          : ([
              ['page', statements.page],
              ['count', statements.count],
            ] as const);
      for (const [label, compiled] of compiledStatements) {
        const text = inline(compiled);
        // Warm the caches first (a just-opened PGlite plans and reads cold): steady state is
        // what the API serves.
        for (let run = 0; run < 3; run += 1) await sql.raw(text).execute(handle.db);
        const plan = await sql
          .raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`)
          .execute(handle.db);
        console.log(`\n=== ${query.name} (${label}): ${query.filter}\n${text}\n`);
        for (const row of plan.rows) console.log(row['QUERY PLAN']);
      }
    }
  } finally {
    await handle.close();
  }
}

await main();
