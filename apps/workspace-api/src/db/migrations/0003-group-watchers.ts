// Groups can watch records (the published contract lists Group watcher targets beside users). A
// watcher row names exactly one target: a user or a group. The existing unique (record_id,
// user_id) still keeps a user from watching twice (group rows have a null user_id, and NULLs are
// distinct); a partial unique index does the same for groups.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table watchers alter column user_id drop not null`.execute(db);
  await sql`alter table watchers
    add column group_id uuid references groups(id) on delete cascade`.execute(db);
  await sql`alter table watchers add constraint watchers_one_target
    check ((user_id is null) <> (group_id is null))`.execute(db);
  await sql`create unique index watchers_record_group on watchers (record_id, group_id)
    where group_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from watchers where group_id is not null`.execute(db);
  await sql`drop index if exists watchers_record_group`.execute(db);
  await sql`alter table watchers drop constraint if exists watchers_one_target`.execute(db);
  await sql`alter table watchers drop column if exists group_id`.execute(db);
  await sql`alter table watchers alter column user_id set not null`.execute(db);
}
