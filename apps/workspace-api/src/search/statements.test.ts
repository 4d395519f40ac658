// The search statements against a plain reference query on the same data: every page of a
// filtered search (one statement over materialized matches) and of an unfiltered list (page +
// count) must equal the slice of the fully sorted, unpaged result, forwards and backwards; and the
// per-definition index set follows the definitions (stale `rx_` indexes are dropped).
import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import type { Db } from '../db/client.ts';
import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import type { SortKey } from './sort.ts';
import type { RecordSearch } from './statements.ts';
import { createHarness } from '../../test/harness.ts';
import { ensureDefinitionIndexes, planDefinitionIndexes } from '../db/definition-indexes.ts';
import { insertRecords } from '../records/records.ts';
import { recordFieldResolver } from './fields.ts';
import { compileFilter } from './filter.ts';
import { orderByClause, parseSort, sortValueText } from './sort.ts';
import {
  distinctNumbersInRange,
  parseSearch,
  resolvedSearchStatements,
  resolveFilter,
  runSearch,
  searchStatements,
} from './statements.ts';

let h: Harness;
let definition: WorkspaceDefinition;

const STATUSES = ['New', 'Open', 'Pending', 'Resolved', 'Closed'];
const SEVERITIES = ['Low', 'Medium', 'High', 'Critical'];

beforeAll(async () => {
  h = await createHarness();
  const found = h.deps.workspace.find('apps', 'support-tickets');
  if (!found) throw new Error('demo workspace missing support-tickets');
  definition = found;
  // 60 tickets whose created_at runs against seq for half of them (matches are not spread evenly),
  // with ties and empty values in the sort fields.
  for (let i = 0; i < 60; i += 1) {
    const createdAt = new Date(Date.UTC(2025, 0, 1) + (i % 2 === 0 ? i : 120 - i) * 86_400_000);
    await insertRecords(
      h.db,
      definition,
      [
        {
          Title: i % 3 === 0 ? `Printer jam ${i}` : `Login issue ${i}`,
          Status: STATUSES[i % 5] ?? 'New',
          Severity: SEVERITIES[i % 4] ?? 'Low',
          ...(i % 7 === 0 ? {} : { Priority: String(i % 4) }),
          ...(i % 5 === 0
            ? {}
            : { 'Due Date': `2025-02-${String((i % 28) + 1).padStart(2, '0')}` }),
        },
      ],
      'agent@example.com',
      createdAt,
    );
  }
});

afterAll(() => h.close());

/** The whole result of a filter + sort, unpaged, with the plain query (no CTE, no limit). */
async function reference(filter: string, keys: SortKey[]): Promise<string[]> {
  const resolve = recordFieldResolver(definition);
  const rows = await h.db
    .selectFrom('records')
    .select(['id'])
    .where('alias', '=', definition.alias)
    .$if(filter !== '', (q) => q.where(compileFilter(filter, resolve)))
    .orderBy(orderByClause(keys, false, sql.ref('records.seq')))
    .execute();
  return rows.map((row) => row.id);
}

/** The ids of the definition's records a filter's SQL matches, in id order. */
async function matchingIds(db: Db, where: RawBuilder<SqlBool>): Promise<string[]> {
  const rows = await db
    .selectFrom('records')
    .select('id')
    .where('alias', '=', definition.alias)
    .where(where)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Pages through a search as the route does (resolvedSearchStatements), in the given direction. */
async function pageThrough(
  filter: string,
  sort: string,
  size: number,
  forward: boolean,
): Promise<{ ids: string[]; totals: Set<number> }> {
  const parsed = parseSearch(definition, filter, sort);
  const keys = parsed.keys;
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: RecordSearch['cursor'];
  for (let guard = 0; guard < 100; guard += 1) {
    // As the route: NUMBER ranges AND-ed with other conditions enumerated where btree_gin is.
    const search = {
      alias: definition.alias,
      filter: parsed.filter,
      keys,
      ...(cursor ? { cursor } : {}),
      forward,
      limit: size + 1,
    };
    const { rows, total } = await runSearch(
      h.db,
      await resolvedSearchStatements(h.db, search, h.deps),
    );
    totals.add(total);
    const page = rows.slice(0, size);
    if (forward) ids.push(...page.map((row) => row.id));
    else ids.unshift(...[...page].reverse().map((row) => row.id));
    if (rows.length <= size) break;
    const edge = page[page.length - 1];
    if (!edge) break;
    cursor = { values: keys.map((_, index) => edge[`k${index}`] ?? null), seq: Number(edge.seq) };
  }
  return { ids, totals };
}

describe('search statements', () => {
  const filters = [
    '',
    'Status==Open',
    'Status=in=(New,Open);Severity!=Low',
    'Title=lk=Printer;Status=in=(New,Open,Pending)',
    'Created At=ge=2025-02-15T00:00:00.000Z;Severity=in=(High,Critical)',
    '(Status==New,Priority=le=1);Due Date=le=2025-02-20',
    'Status==Closed;Severity==Low;Title=lk=nothing-matches',
  ];
  const sorts = ['', '-Created At', 'Priority,-Title', '-Due Date'];

  it.each(filters.flatMap((filter) => sorts.map((sort) => [filter, sort] as const)))(
    'filter %j sort %j: every page, both directions, equals the unpaged result',
    async (filter, sort) => {
      const keys = sort !== '' ? parseSort(sort, recordFieldResolver(definition)) : [];
      const expected = await reference(filter, keys);
      for (const forward of [true, false]) {
        const { ids, totals } = await pageThrough(filter, sort, 7, forward);
        expect(ids).toEqual(expected);
        expect([...totals]).toEqual([expected.length]);
      }
      // The fixture has matches for every filter but the last one.
      expect(expected.length > 0).toBe(!filter.includes('nothing-matches'));
    },
  );

  it('is one statement for a filtered search and page + count for an unfiltered list', () => {
    const where = compileFilter('Status==Open', recordFieldResolver(definition));
    const base = { alias: definition.alias, keys: [], forward: true, limit: 101 };
    const filtered = searchStatements(h.db, { ...base, filter: where });
    expect(filtered.kind).toBe('single');
    if (filtered.kind === 'single') expect(filtered.query.sql).toContain('as materialized');
    expect(searchStatements(h.db, base).kind).toBe('pair');
  });

  it('returns the total with an empty page past the last match', async () => {
    const resolve = recordFieldResolver(definition);
    const keys = parseSort('-Created At', resolve);
    const all = await runSearch(
      h.db,
      searchStatements(h.db, {
        alias: definition.alias,
        filter: compileFilter('Status==Open', resolve),
        keys,
        forward: true,
        limit: 1000,
      }),
    );
    const last = all.rows[all.rows.length - 1];
    expect(all.total).toBe(12);
    const beyond = await runSearch(
      h.db,
      searchStatements(h.db, {
        alias: definition.alias,
        filter: compileFilter('Status==Open', resolve),
        keys,
        cursor: { values: [last?.k0 ?? null], seq: Number(last?.seq) },
        forward: true,
        limit: 10,
      }),
    );
    expect(beyond).toEqual({ rows: [], total: 12 });
  });

  it('reads a sort key lossless from the page row (k0)', async () => {
    const resolve = recordFieldResolver(definition);
    const keys = parseSort('-Created At', resolve);
    const { rows } = await runSearch(
      h.db,
      searchStatements(h.db, {
        alias: definition.alias,
        filter: compileFilter('Status==New', resolve),
        keys,
        forward: true,
        limit: 2,
      }),
    );
    const text = await h.db
      .selectFrom('records')
      .select(sortValueText(keys[0]?.field ?? (undefined as never)).as('k'))
      .where('id', '=', rows[0]?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(rows[0]?.k0).toBe(text.k);
    expect(rows[0]?.k0).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});

describe('NUMBER ranges AND-ed with other conditions', () => {
  // Priorities 0-3 from the fixture above, plus values a range must not lose: a decimal, a
  // negative, two digits (10 sorts before 2 as text) and 1.0, equal to 1 as a number.
  const extra = ['1.0', '-2', '2.5', '10'];
  const extraIds: string[] = [];
  beforeAll(async () => {
    for (const priority of extra) {
      const [row] = await insertRecords(
        h.db,
        definition,
        [{ Title: `Priority ${priority}`, Status: 'Open', Severity: 'High', Priority: priority }],
        'agent@example.com',
        new Date('2025-03-01T00:00:00.000Z'),
      );
      extraIds.push(row?.id ?? '');
    }
  });
  afterAll(async () => {
    await h.db.deleteFrom('records').where('id', 'in', extraIds).execute();
  });

  const rangeOf = (filter: string) => {
    const plan = parseSearch(definition, filter, '').filter;
    const [range] = plan?.ranges ?? [];
    if (!range) throw new Error(`no range in ${filter}`);
    return range;
  };
  const numbers = (values: string[] | undefined) => values?.map(Number);

  it('finds the distinct values stored in a range, in order, bounds as the operator says', async () => {
    const values = (filter: string, limit?: number) =>
      distinctNumbersInRange(h.db, definition.alias, rangeOf(`Status==Open;${filter}`), limit);
    expect(numbers(await values('Priority=le=1'))).toEqual([-2, 0, 1]);
    expect(numbers(await values('Priority=lt=1'))).toEqual([-2, 0]);
    expect(numbers(await values('Priority=gt=2'))).toEqual([2.5, 3, 10]);
    expect(numbers(await values('Priority=ge=2.5'))).toEqual([2.5, 3, 10]);
    expect(numbers(await values('Priority=bt=(0,2.5)'))).toEqual([0, 1, 2, 2.5]);
    expect(await values('Priority=gt=10')).toEqual([]);
    // More than the limit: undefined, and the range is searched as written.
    expect(numbers(await values('Priority=ge=0', 6))).toEqual([0, 1, 2, 2.5, 3, 10]);
    expect(await values('Priority=ge=0', 5)).toBeUndefined();
  });

  it('notes only ranges AND-ed with other conditions', () => {
    const keys = (filter: string) =>
      parseSearch(definition, filter, '').filter?.ranges.map((range) => range.field.name);
    expect(keys('Priority=le=1')).toEqual([]);
    expect(keys('Priority=le=1,Status==Open')).toEqual([]);
    expect(keys('Status==Open;Priority=le=1')).toEqual(['Priority']);
    expect(keys('(Status==New,Status==Open);(Severity==Critical,Priority=le=1)')).toEqual([
      'Priority',
    ]);
    // Equality and `=in=` already are lookups; negated ranges also match empty fields (an OR).
    expect(keys('Status==Open;Priority==1;Priority=in=(1,2);Priority=nbt=(1,2)')).toEqual([]);
  });

  it.each([
    'Status==Open;Priority=le=1',
    'Status==Open;Priority=lt=1',
    'Severity==High;Priority=gt=2',
    'Status==Open;Priority=bt=(0,2.5)',
    '(Status==New,Status==Open);(Severity==Critical,Priority=le=1);Due Date=le=2025-02-20',
    '(Status==Open,Priority=ge=2.5);Severity==High',
    'Status=in=(Open,New);Severity=in=(High,Low);Priority=bt=(1,2)',
  ])('%s: enumerated, the same records as the range as written', async (filter) => {
    const plan = parseSearch(definition, filter, '').filter;
    if (!plan) throw new Error('no filter');
    const ids = (where: RawBuilder<SqlBool>) => matchingIds(h.db, where);
    const written = plan.compile();
    const enumerated = await resolveFilter(h.db, definition.alias, plan, { btreeGin: true });
    expect(enumerated.compile(h.db).sql).not.toEqual(written.compile(h.db).sql);
    expect(enumerated.compile(h.db).sql).not.toMatch(/numeric (<|>|between)/);
    const expected = await ids(written);
    expect(await ids(enumerated)).toEqual(expected);
    // Past the limit the range stays as written.
    const wide = await resolveFilter(h.db, definition.alias, plan, {
      btreeGin: true,
      maxValues: 0,
    });
    expect(wide.compile(h.db).sql).toEqual(written.compile(h.db).sql);
    // Without btree_gin the GIN index lacks the field and the range is not looked at.
    const plain = await resolveFilter(h.db, definition.alias, plan, { btreeGin: false });
    expect(plain.compile(h.db).sql).toEqual(written.compile(h.db).sql);
  });

  it('answers an empty range with no records, not with a range scan', async () => {
    const plan = parseSearch(definition, 'Status==Open;Priority=gt=10', '').filter;
    if (!plan) throw new Error('no filter');
    const where = await resolveFilter(h.db, definition.alias, plan, { btreeGin: true });
    expect(where.compile(h.db).sql).toBe('((data @> $1::jsonb) and false)');
    expect(await matchingIds(h.db, where)).toEqual([]);
  });
});

describe('month buckets of a bounded Created At / Updated At range', () => {
  // Records either side of a UTC month boundary, besides the fixture's days in Jan-May 2025; the
  // first is already in February in Kiritimati (UTC+14), the session zone of the last test.
  const edgeIds: string[] = [];
  beforeAll(async () => {
    for (const at of [
      '2025-01-31T12:00:00.000Z',
      '2025-01-31T23:59:59.999Z',
      '2025-02-01T00:00:00.000Z',
    ]) {
      const [row] = await insertRecords(
        h.db,
        definition,
        [{ Title: `Edge ${at}`, Status: 'Open', Severity: 'High' }],
        'agent@example.com',
        new Date(at),
      );
      edgeIds.push(row?.id ?? '');
    }
  });
  afterAll(async () => {
    await h.db.deleteFrom('records').where('id', 'in', edgeIds).execute();
  });

  const resolved = async (filter: string) => {
    const plan = parseSearch(definition, filter, '').filter;
    if (!plan) throw new Error('no filter');
    const where = await resolveFilter(h.db, definition.alias, plan, { btreeGin: true });
    return { plan, where, compiled: where.compile(h.db) };
  };
  const monthsOf = (compiled: { sql: string; parameters: readonly unknown[] }) =>
    compiled.sql.includes('date_trunc')
      ? compiled.parameters.filter((value) => /T00:00:00$/.test(String(value)))
      : [];

  it('names the UTC months a range touches, next to a containment only', async () => {
    const months = async (filter: string) => monthsOf((await resolved(filter)).compiled);
    expect(
      await months('Created At=bt=2025-01-20T00:00:00.000Z:2025-03-02T00:00:00.000Z;Status==Open'),
    ).toEqual(['2025-01-01T00:00:00', '2025-02-01T00:00:00', '2025-03-01T00:00:00']);
    // The console's relative dates: two one-sided comparisons in one AND (ADR 0017).
    expect(
      await months(
        'Updated At=ge=2025-02-01T00:00:00.000Z;Updated At=lt=2025-02-08T00:00:00.000Z;Status=in=(Open,New)',
      ),
    ).toEqual(['2025-02-01T00:00:00']);
    // Nothing for the index to intersect the months with, one side open, an empty range, or
    // more than 16 months: no bucket.
    expect(
      await months('Created At=bt=2025-01-20T00:00:00.000Z:2025-03-02T00:00:00.000Z;Priority=gt=1'),
    ).toEqual([]);
    expect(await months('Created At=ge=2025-01-20T00:00:00.000Z;Status==Open')).toEqual([]);
    expect(
      await months('Created At=bt=2025-03-01T00:00:00.000Z:2025-01-01T00:00:00.000Z;Status==Open'),
    ).toEqual([]);
    expect(
      await months('Created At=bt=2024-01-01T00:00:00.000Z:2025-05-01T00:00:00.000Z;Status==Open'),
    ).toEqual([]);
    // Without btree_gin the index has no month column: as written.
    const plan = parseSearch(
      definition,
      'Created At=bt=2025-01-20T00:00:00.000Z:2025-03-02T00:00:00.000Z;Status==Open',
      '',
    ).filter;
    if (!plan) throw new Error('no filter');
    const plain = await resolveFilter(h.db, definition.alias, plan, { btreeGin: false });
    expect(plain.compile(h.db).sql).not.toContain('date_trunc');
  });

  it('gives every AND-group of a distributed filter its months', async () => {
    const { compiled } = await resolved(
      '(Status==New,Status==Open);(Severity==High,Severity==Low);Created At=bt=2025-01-20T00:00:00.000Z:2025-02-02T00:00:00.000Z',
    );
    expect(compiled.sql.match(/date_trunc/g)).toHaveLength(4);
  });

  it.each([
    'Created At=bt=2025-01-20T00:00:00.000Z:2025-03-02T00:00:00.000Z;Status=in=(Open,New)',
    'Created At=bt=2025-01-31T23:00:00.000Z:2025-02-01T00:30:00.000Z;Status==Open',
    'Created At=bt=2025-01-31T00:00:00.000Z:2025-01-31T23:00:00.000Z;Status==Open',
    'Created At=gt=2025-01-31T23:59:59.999Z;Created At=le=2025-02-15T00:00:00.000Z;Status==Open',
    'Created At=ge=2025-02-01T00:00:00.000Z;Created At=lt=2025-03-01T00:00:00.000Z;Severity==High',
    'Updated At=bt=2025-01-01T00:00:00.000Z:2025-04-30T00:00:00.000Z;Severity=in=(High,Low)',
    '(Status==New,Status==Open);(Severity==High,Severity==Low);Created At=bt=2025-01-20T00:00:00.000Z:2025-02-02T00:00:00.000Z',
  ])('%s: with months, the same records as without, in any session time zone', async (filter) => {
    const { plan, compiled } = await resolved(filter);
    expect(monthsOf(compiled).length).toBeGreaterThan(0);
    const ids = async (where: RawBuilder<SqlBool>) => {
      // A session zone far from UTC, where a local month starts 14 hours early: the buckets are
      // UTC months whatever the session says.
      let found: string[] = [];
      const done = new Error('rollback');
      await expect(
        h.db.transaction().execute(async (trx) => {
          await sql`set local time zone 'Pacific/Kiritimati'`.execute(trx);
          found = await matchingIds(trx, where);
          throw done;
        }),
      ).rejects.toBe(done);
      return found;
    };
    const expected = await ids(plan.compile());
    expect(expected.length).toBeGreaterThan(0);
    expect(await ids((await resolved(filter)).where)).toEqual(expected);
  });
});

describe('per-definition indexes', () => {
  const indexNames = async () =>
    new Set(
      (
        await sql<{ indexname: string }>`select indexname from pg_indexes
          where tablename = 'records' and schemaname = current_schema()`.execute(h.db)
      ).rows.map((row) => row.indexname),
    );

  it('drops rx_ indexes no definition plans any more and keeps the planned ones', async () => {
    await sql`create index rx_00000000000000000000 on records (seq) where alias = 'gone'`.execute(
      h.db,
    );
    await sql`create index keep_me on records (seq) where alias = 'other'`.execute(h.db);
    expect(await indexNames()).toContain('rx_00000000000000000000');
    await ensureDefinitionIndexes(h.db, h.deps.workspace.definitions, h.deps);
    const names = await indexNames();
    expect(names).not.toContain('rx_00000000000000000000');
    expect(names).toContain('keep_me');
    const planned = h.deps.workspace.definitions.flatMap((d) =>
      planDefinitionIndexes(d, h.deps).map((plan) => plan.name),
    );
    expect(planned.filter((name) => !names.has(name))).toEqual([]);
    await sql`drop index keep_me`.execute(h.db);
  });

  it('plans one search GIN index per definition whose name changes with its columns', () => {
    const plans = planDefinitionIndexes(definition, { trgm: true, btreeGin: true });
    const gin = plans.filter((plan) => plan.ddl.includes('jsonb_path_ops'));
    expect(gin).toHaveLength(1);
    expect(gin[0]?.ddl).toContain(
      "using gin (data jsonb_path_ops, (data ->> 'Title') public.gin_trgm_ops",
    );
    // No separate trigram index: every TEXT field is a column of the one index.
    expect(plans.filter((plan) => plan.ddl.includes('gin_trgm_ops'))).toHaveLength(1);
    const withField = planDefinitionIndexes(
      {
        ...definition,
        fields: [...definition.fields, { name: 'Notes', type: 'TEXT', required: false }],
      },
      { trgm: true, btreeGin: true },
    ).find((plan) => plan.ddl.includes('jsonb_path_ops'));
    expect(withField?.name).not.toBe(gin[0]?.name);
    expect(withField?.ddl).toContain("(data ->> 'Notes') public.gin_trgm_ops");
    // With btree_gin, each NUMBER field is a numeric column of the same index.
    expect(gin[0]?.ddl).toContain("((data ->> 'Priority')::numeric), ");
    // ...and the UTC month of created_at and updated_at is a column too (filter.ts monthBuckets).
    expect(gin[0]?.ddl).toContain(
      "(date_trunc('month', (created_at at time zone 'UTC'))), (date_trunc('month', (updated_at at time zone 'UTC'))))",
    );
    const withoutTrgm = planDefinitionIndexes(definition, { trgm: false, btreeGin: true });
    expect(withoutTrgm.filter((plan) => plan.ddl.includes('gin_trgm_ops'))).toEqual([]);
    expect(withoutTrgm.filter((plan) => plan.ddl.includes('jsonb_path_ops'))).toHaveLength(1);
    // Neither extension: revision 1's containment-only index, under its own name.
    const bare = planDefinitionIndexes(definition, { trgm: false, btreeGin: false });
    const bareGin = bare.filter((plan) => plan.ddl.includes('jsonb_path_ops'));
    expect(bareGin.map((plan) => plan.ddl)).toEqual([
      expect.stringContaining('using gin (data jsonb_path_ops) where'),
    ]);
  });
});
