// DESIGN.md section 6, "uploads": at most 4 in flight per credential (429), refused with 507 when
// the blob volume would fall under its free-space floor, and a cap on attachments per record
// (the published list is a bare array, so it cannot be paged). Each test performs the attack.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import { AttachmentListSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../test/harness.ts';
import type { UploadGate } from './uploads.ts';
import { createHarness } from '../../test/harness.ts';
import { insertRecords } from '../records/records.ts';
import { TEMP_PREFIX } from './blobs.ts';
import { UploadGate as Gate, MAX_ATTACHMENTS_PER_RECORD } from './uploads.ts';

let h: Harness;
let hosted: Harness;
let ticket: string;
let savedGate: UploadGate;

async function newTicket(harness: Harness, title: string): Promise<string> {
  const tickets = harness.deps.workspace.find('apps', 'support-tickets');
  if (!tickets) throw new Error('demo workspace missing');
  const [row] = await insertRecords(
    harness.db,
    tickets,
    [{ Title: title, Status: 'New' }],
    'a@b.c',
  );
  return row?.id ?? '';
}

beforeAll(async () => {
  [h, hosted] = await Promise.all([createHarness(), createHarness({ profile: 'hosted' })]);
  ticket = await newTicket(h, 'Uploads');
  savedGate = h.deps.uploads;
});
afterEach(() => {
  h.deps.uploads = savedGate;
  h.config.blobMinFreeBytes = 0;
});
afterAll(() => Promise.all([h.close(), hosted.close()]));

const BOUNDARY = '----wsc-upload-limits';
const encoder = new TextEncoder();
const HEAD = encoder.encode(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
);
const TAIL = encoder.encode(`\r\n--${BOUNDARY}--\r\n`);

/** An upload whose body the test feeds: it stays in flight until `finish()`. */
function heldUpload(harness: Harness, record: string, token: string, length?: number) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(HEAD);
      c.enqueue(new Uint8Array(1000).fill(7));
    },
  });
  const response = harness.app.request(`/v1/apps/support-tickets/${record}/attachments`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(length !== undefined ? { 'Content-Length': String(length) } : {}),
    },
    body,
    duplex: 'half',
  } as RequestInit);
  return {
    response,
    finish: () => {
      controller?.enqueue(TAIL);
      controller?.close();
    },
  };
}

function smallUpload(harness: Harness, record: string, token: string, text = 'hello') {
  const form = new FormData();
  form.append('file', new File([text], 'small.txt', { type: 'text/plain' }));
  return harness.app.request(`/v1/apps/support-tickets/${record}/attachments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

async function until(check: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const temps = async (harness: Harness) =>
  (await fs.readdir(harness.config.blobDir)).filter((name) => name.startsWith(TEMP_PREFIX));

describe('uploads in flight', () => {
  it('allows 4 per credential; the 5th gets 429 with Retry-After, others are unaffected', async () => {
    const clientId = h.credentials.member.clientId;
    const held = Array.from({ length: 4 }, () => heldUpload(h, ticket, h.tokens.member));
    await until(() => h.deps.uploads.inFlight(clientId) === 4);
    // All four are writing their temp files (past the slot, the cap check and the space check).
    let tempsBefore = 0;
    const deadline = Date.now() + 10_000;
    while (tempsBefore < 4 && Date.now() < deadline) {
      tempsBefore = (await temps(h)).length;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(tempsBefore).toBe(4);

    const fifth = await smallUpload(h, ticket, h.tokens.member);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('Retry-After')).toBe('1');
    expect(fifth.headers.get('Connection')).toBe('close');
    expect(ProblemSchema.parse(await fifth.json()).detail).toMatch(/At most 4 uploads/);
    expect((await temps(h)).length).toBe(tempsBefore);
    // Another credential has its own four.
    expect((await smallUpload(h, ticket, h.tokens.admin)).status).toBe(202);

    for (const upload of held) upload.finish();
    for (const upload of held) expect((await upload.response).status).toBe(202);
    expect(h.deps.uploads.inFlight(clientId)).toBe(0);
    expect((await smallUpload(h, ticket, h.tokens.member)).status).toBe(202);
  });

  it('frees the slot of an upload that fails (bad body), so failures cannot use slots up', async () => {
    for (let i = 0; i < 6; i += 1) {
      const res = await h.app.request(`/v1/apps/support-tickets/${ticket}/attachments`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${h.tokens.member}`,
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body: 'not multipart at all',
      });
      expect(res.status).toBe(400);
    }
    expect(h.deps.uploads.inFlight(h.credentials.member.clientId)).toBe(0);
  });
});

describe('free space on the blob volume', () => {
  it('answers 507 (problem) before reading when the volume would fall under BLOB_MIN_FREE_BYTES', async () => {
    // The real volume (fs.statfs of BLOB_DIR) never has this much free.
    h.config.blobMinFreeBytes = 2 ** 60;
    const before = await h.db.selectFrom('attachments').select('id').execute();
    const res = await smallUpload(h, ticket, h.tokens.member);
    expect(res.status).toBe(507);
    expect(res.headers.get('Content-Type')).toContain('application/problem+json');
    expect(ProblemSchema.parse(await res.json()).status).toBe(507);
    expect(await h.db.selectFrom('attachments').select('id').execute()).toHaveLength(before.length);
    expect(await temps(h)).toEqual([]);
    h.config.blobMinFreeBytes = 0;
    expect((await smallUpload(h, ticket, h.tokens.member)).status).toBe(202);
  });

  it('counts the bytes promised to uploads in flight', async () => {
    const MB = 1_000_000;
    // A volume with 3 MB free and a 1 MB floor: room for 2 MB of uploads in all.
    h.deps.uploads = new Gate(4, () => Promise.resolve({ bavail: 3 * MB, bsize: 1 }));
    h.config.blobMinFreeBytes = MB;
    const first = heldUpload(h, ticket, h.tokens.member, 1.5 * MB);
    await until(() => h.deps.uploads.reservedBytes === 1.5 * MB);
    const second = heldUpload(h, ticket, h.tokens.admin, MB);
    const refused = await second.response;
    expect(refused.status).toBe(507);
    expect(h.deps.uploads.reservedBytes).toBe(1.5 * MB);
    // The first one ends, and its promise is returned.
    first.finish();
    expect((await first.response).status).toBe(202);
    expect(h.deps.uploads.reservedBytes).toBe(0);
  });

  it('answers 507 as {message} in the hosted profile', async () => {
    hosted.config.blobMinFreeBytes = 2 ** 60;
    const record = await newTicket(hosted, 'Hosted uploads');
    const res = await smallUpload(hosted, record, hosted.tokens.member);
    expect(res.status).toBe(507);
    expect(Object.keys((await res.json()) as object)).toEqual(['message']);
  });
});

describe('attachments per record', () => {
  it(`refuses attachment number ${MAX_ATTACHMENTS_PER_RECORD + 1} (file or link) with 422; the list stays a bare array`, async () => {
    const full = await newTicket(h, 'Full');
    const now = Date.now();
    await h.db
      .insertInto('attachments')
      .values(
        Array.from({ length: MAX_ATTACHMENTS_PER_RECORD }, (_, i) => ({
          id: randomUUID(),
          record_id: full,
          name: `https://example.com/${i}`,
          description: null,
          media_type: 'text/uri-list',
          size: 0,
          sha256: null,
          blob_key: null,
          url: `https://example.com/${i}`,
          state: 'VALID' as const,
          view_state: 'PRIVATE' as const,
          created_at: new Date(now + i),
          created_by: 'a@b.c',
        })),
      )
      .execute();
    const link = await h.request('POST', `/v1/apps/support-tickets/${full}/attachments/url-links`, {
      token: h.tokens.member,
      body: { url: 'https://example.com/one-more' },
    });
    expect(link.status).toBe(422);
    expect(ProblemSchema.parse(link.json).errors?.[0]?.field).toBe('url');
    const file = await smallUpload(h, full, h.tokens.member);
    expect(file.status).toBe(422);
    expect(ProblemSchema.parse(await file.json()).errors?.[0]?.field).toBe('file');
    expect(await temps(h)).toEqual([]);
    const list = await h.request('GET', `/v1/apps/support-tickets/${full}/attachments`, {
      token: h.tokens.member,
    });
    expect(AttachmentListSchema.parse(list.json)).toHaveLength(MAX_ATTACHMENTS_PER_RECORD);
  });

  it('lets concurrent additions to an almost full record pass the cap by none', async () => {
    const almost = await newTicket(h, 'Almost full');
    await h.db
      .insertInto('attachments')
      .values(
        Array.from({ length: MAX_ATTACHMENTS_PER_RECORD - 2 }, (_, i) => ({
          id: randomUUID(),
          record_id: almost,
          name: `n${i}`,
          description: null,
          media_type: 'text/uri-list',
          size: 0,
          sha256: null,
          blob_key: null,
          url: `https://example.com/${i}`,
          state: 'VALID' as const,
          view_state: 'PRIVATE' as const,
          created_at: new Date(),
          created_by: 'a@b.c',
        })),
      )
      .execute();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.request('POST', `/v1/apps/support-tickets/${almost}/attachments/url-links`, {
          token: h.tokens.member,
          body: { url: `https://example.com/race-${i}` },
        }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
    const count = await h.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('record_id', '=', almost)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(MAX_ATTACHMENTS_PER_RECORD);
  });
});
