import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PGliteDialect } from './dialect.ts';

type Db = { items: { id: number; name: string } };

let db: Kysely<Db>;

beforeAll(async () => {
  db = new Kysely<Db>({ dialect: new PGliteDialect(await PGlite.create()) });
  await sql`create table items (id int primary key, name text not null)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
});

describe('PGliteDialect', () => {
  it('runs queries with parameters and reports affected rows', async () => {
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
    const updated = await db
      .updateTable('items')
      .set({ name: 'uno' })
      .where('id', '=', 1)
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    expect(await db.selectFrom('items').selectAll().execute()).toEqual([{ id: 1, name: 'uno' }]);
    await db.deleteFrom('items').execute();
  });

  it('holds the one connection for a transaction: other queries wait until it ends', async () => {
    const seen: string[] = [];
    let inside: () => void = () => {};
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 2, name: 'two' }).execute();
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen.push('commit');
    });
    await entered;
    const outside = db
      .selectFrom('items')
      .select('id')
      .execute()
      .then((rows) => seen.push(`read ${rows.length}`));
    await Promise.all([transaction, outside]);
    expect(seen).toEqual(['commit', 'read 1']);
    await db.deleteFrom('items').execute();
  });

  it('rolls back a failed transaction and applies the isolation level given', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 3, name: 'three' }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.selectFrom('items').selectAll().execute()).toEqual([]);

    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const { rows } = await sql<{
          transaction_isolation: string;
        }>`show transaction_isolation`.execute(trx);
        return rows[0]?.transaction_isolation;
      });
    expect(level).toBe('serializable');
  });
});
