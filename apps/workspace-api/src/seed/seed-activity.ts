// What happens around the demo's records once they exist: relations between them, comments and
// watchers on tickets, a few real attachments and links, and a group among some watchers. Each step
// draws from the seed's PRNG in a fixed order, so the same seed gives the same demo.
import { createHash } from 'node:crypto';

import type { Db } from '../db/client.ts';
import type { Workspace } from '../workspace/definitions.ts';
import type { DemoUser } from './demo-people.ts';
import type { Rng } from './prng.ts';
import type { GeneratedRecord } from './seed-records.ts';
import { writeBlob } from '../attachments/blobs.ts';
import { DEMO_GROUPS } from '../workspace/demo-workspace.ts';
import { demoFile } from './demo-files.ts';
import { demoDomain } from './demo-people.ts';
import { uuidFrom } from './prng.ts';
import { COMMENT_TEXTS } from './seed-data.ts';

/** The records made of one definition, with their ids. */
export type SeededRecords = Array<{ id: string; row: GeneratedRecord }>;

/** How many records (the newest critical tickets) a support group watches. */
const GROUP_WATCHED_RECORDS = 6;

async function insertInBatches<T>(
  items: T[],
  size: number,
  insert: (batch: T[]) => Promise<unknown>,
): Promise<void> {
  for (let start = 0; start < items.length; start += size)
    await insert(items.slice(start, start + size));
}

/**
 * Relates tickets to their customer and to the tasks opened for them, and refunds to their
 * customer (both directions); returns the number of relations.
 *
 * @example
 * const relations = await seedRelations(trx, rng, { customers, tickets, tasks, refunds });
 */
export async function seedRelations(
  trx: Db,
  rng: Rng,
  records: Record<'customers' | 'tickets' | 'tasks' | 'refunds', SeededRecords>,
): Promise<number> {
  const { customers, tickets, tasks, refunds } = records;
  const customerId = new Map(customers.map((item) => [item.row.data.Name ?? '', item.id]));
  const pairs: Array<[string, string, Date, string]> = [];
  for (const ticket of tickets) {
    const customer = customerId.get(ticket.row.data.Customer ?? '');
    if (customer && rng.chance(0.7))
      pairs.push([ticket.id, customer, ticket.row.createdAt, ticket.row.createdBy]);
  }
  tasks.forEach((task, index) => {
    if (tickets.length === 0 || !rng.chance(0.75)) return;
    // A task is opened for a ticket of about the same time.
    const near = Math.min(
      tickets.length - 1,
      Math.floor((index / Math.max(tasks.length, 1)) * tickets.length) + rng.int(-3, 0),
    );
    const ticket = tickets[Math.max(0, near)];
    if (ticket) pairs.push([ticket.id, task.id, task.row.createdAt, task.row.createdBy]);
  });
  for (const refund of refunds) {
    const customer = customerId.get(refund.row.data.Customer ?? '');
    if (customer) pairs.push([refund.id, customer, refund.row.createdAt, refund.row.createdBy]);
  }
  const relationRows = pairs.flatMap(([a, b, at, by]) => [
    { record_id: a, related_id: b, created_at: at, created_by: by },
    { record_id: b, related_id: a, created_at: at, created_by: by },
  ]);
  await insertInBatches(relationRows, 1000, (batch) =>
    trx
      .insertInto('record_relations')
      .values(batch)
      .onConflict((oc) => oc.columns(['record_id', 'related_id']).doNothing())
      .execute(),
  );
  return relationRows.length / 2;
}

/**
 * Comments on about half the tickets (by their opener, then their assignee) and a few people
 * watching some of them.
 *
 * @example
 * const { comments, watchers } = await seedCommentsAndWatchers(trx, rng, tickets, users);
 */
export async function seedCommentsAndWatchers(
  trx: Db,
  rng: Rng,
  tickets: SeededRecords,
  users: DemoUser[],
): Promise<{ comments: number; watchers: number }> {
  const active = users.filter((user) => user.status === 'ACTIVE');
  const idByEmail = new Map(users.map((user) => [user.email, user.id]));
  const commentRows: Array<{
    id: string;
    record_id: string;
    contents: string;
    source: string;
    created_at: Date;
    created_by: string;
  }> = [];
  const watcherRows: Array<{ id: string; record_id: string; user_id: string; created_at: Date }> =
    [];
  const activeIds = active.map((user) => user.id);
  for (const ticket of tickets) {
    if (rng.chance(0.45)) {
      let at = ticket.row.createdAt;
      const end = Math.max(ticket.row.updatedAt.getTime(), at.getTime() + 60_000);
      for (let i = 0, n = rng.int(1, 4); i < n; i += 1) {
        at = new Date(at.getTime() + Math.floor(rng.next() * ((end - at.getTime()) / (n - i))));
        const author = idByEmail.get(
          i === 0 ? ticket.row.createdBy : (ticket.row.data.Assignee ?? ticket.row.createdBy),
        );
        commentRows.push({
          id: uuidFrom(rng),
          record_id: ticket.id,
          contents: rng.pick(COMMENT_TEXTS),
          source: rng.chance(0.8) ? 'API' : 'EMAIL',
          created_at: at,
          created_by: author ?? rng.pick(activeIds),
        });
      }
    }
    if (rng.chance(0.3) && activeIds.length > 0) {
      for (const userId of rng.sample(activeIds, rng.int(1, 3))) {
        watcherRows.push({
          id: uuidFrom(rng),
          record_id: ticket.id,
          user_id: userId,
          created_at: ticket.row.createdAt,
        });
      }
    }
  }
  await insertInBatches(commentRows, 1000, (batch) =>
    trx.insertInto('comments').values(batch).execute(),
  );
  await insertInBatches(watcherRows, 1000, (batch) =>
    trx.insertInto('watchers').values(batch).execute(),
  );
  return { comments: commentRows.length, watchers: watcherRows.length };
}

/**
 * A few real files (written to the blob folder) on recent technical tickets and status page links
 * on others; returns how many attachments were made.
 *
 * @example
 * const attachments = await seedAttachments(trx, rng, tickets, config.blobDir, config.region);
 */
export async function seedAttachments(
  trx: Db,
  rng: Rng,
  tickets: SeededRecords,
  blobDir: string,
  region: 'default' | 'eu',
): Promise<number> {
  const recent = tickets
    .slice(-200)
    .filter((ticket) => ['Technical', 'Bug'].includes(ticket.row.data.Category ?? ''));
  const attachmentRows = [];
  for (const [index, ticket] of rng.sample(recent, 24).entries()) {
    const file = demoFile(rng, ticket.id, ticket.row.createdAt, index);
    const id = uuidFrom(rng);
    await writeBlob(blobDir, id, file.bytes);
    attachmentRows.push({
      id,
      record_id: ticket.id,
      name: file.name,
      description: file.description,
      media_type: file.mediaType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      blob_key: id,
      url: null,
      state: 'VALID' as const,
      view_state: 'PRIVATE' as const,
      created_at: new Date(ticket.row.createdAt.getTime() + 60_000),
      created_by: ticket.row.createdBy,
    });
  }
  const links = rng.sample(tickets.slice(-400), 12).map((ticket) => {
    const url = `https://status.${demoDomain(region)}/incidents/${rng.int(100, 999)}`;
    return {
      id: uuidFrom(rng),
      record_id: ticket.id,
      name: url,
      description: 'Status page incident',
      media_type: 'text/uri-list',
      size: 0,
      sha256: null,
      blob_key: null,
      url,
      state: 'VALID' as const,
      view_state: 'PRIVATE' as const,
      created_at: new Date(ticket.row.createdAt.getTime() + 120_000),
      created_by: ticket.row.createdBy,
    };
  });
  const allAttachments = [...attachmentRows, ...links].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime(),
  );
  if (allAttachments.length > 0)
    await trx.insertInto('attachments').values(allAttachments).execute();
  return allAttachments.length;
}

/**
 * A support group among the watchers of the newest critical tickets (in a custom workspace
 * without tickets, the newest records); returns how many records it watches.
 *
 * @example
 * const watched = await seedGroupWatchers(trx, rng, workspace, groupId, tickets, made);
 */
export async function seedGroupWatchers(
  trx: Db,
  rng: Rng,
  workspace: Workspace,
  groupId: Map<string, string>,
  tickets: SeededRecords,
  made: Record<string, SeededRecords>,
): Promise<number> {
  // The published contract lists Group watcher targets; clients must show them. Made after
  // everything else the rng feeds, so the rest of the demo stays as it was.
  const watchingGroup =
    workspace.groups.find((group) => group.name === DEMO_GROUPS.tier2) ??
    workspace.groups.find((group) => group.watchable);
  const watchingGroupId = watchingGroup ? groupId.get(watchingGroup.name) : undefined;
  // The newest critical tickets; in a custom workspace without tickets, the newest records.
  const groupWatched = (
    tickets.length > 0
      ? tickets.filter((ticket) => ticket.row.data.Severity === 'Critical')
      : Object.values(made).flat()
  ).slice(-GROUP_WATCHED_RECORDS);
  const groupWatcherRows = watchingGroupId
    ? groupWatched.map((item) => ({
        id: uuidFrom(rng),
        record_id: item.id,
        group_id: watchingGroupId,
        created_at: item.row.createdAt,
      }))
    : [];
  if (groupWatcherRows.length > 0)
    await trx.insertInto('watchers').values(groupWatcherRows).execute();
  return groupWatcherRows.length;
}
