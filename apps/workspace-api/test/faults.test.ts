// Faults (DESIGN.md section 6): kill -9 during writes loses no acknowledged write; an upload cut
// at any point leaves no row and no file. The randomized loops (many rounds, random kill moments
// and cut points, PostgreSQL too, through the BFF too) are `pnpm bench -- faults`.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from './harness.ts';
import { initDeps } from '../src/app.ts';
import { parseEnv } from '../src/env.ts';
import { createCredential, insertUser } from '../src/identity/credentials.ts';
import { insertRecords } from '../src/records/records.ts';
import { startServer } from '../src/server.ts';
import { createHarness } from './harness.ts';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TICKETS = '/v1/apps/support-tickets';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(50);
  }
}

describe('kill -9 of the API during a stream of writes (embedded PGlite)', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  let output = '';

  /** The API as a process of its own (`node --import tsx src/index.ts`), in its own process group. */
  async function start(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
      cwd: APP_DIR,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        RATE_LIMIT_RPS: '0',
        LOG_LEVEL: 'error',
        SEED_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the API exited: ${output}`);
        return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
      },
      90_000,
      'the API to answer /health',
    );
    return child;
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wsa-faults-'));
  });
  afterAll(async () => {
    if (server?.pid && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      process.kill(-server.pid, 'SIGKILL');
      await exited;
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'loses no acknowledged write, and reuses no acknowledged id',
    { timeout: 240_000 },
    async () => {
      // One admin with a credential, written before the API opens the folder (PGlite is single-process).
      const { deps, close } = await initDeps(
        parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_RPS: '0' }),
      );
      const user = await insertUser(deps.db, {
        email: 'writer@example.com',
        firstName: 'W',
        lastName: 'Riter',
        role: 'ADMIN',
      });
      const credential = await createCredential(deps.db, user.id, 'faults');
      await close();

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      server = await start(port);
      const token = async () => {
        const res = await fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        });
        return ((await res.json()) as { access_token: string }).access_token;
      };
      const bearer = await token();
      const acked = new Map<string, string>();
      let killed = false;
      const writer = async (w: number) => {
        for (let n = 0; !killed; n += 1) {
          const title = `w${w} n${n}`;
          try {
            const res = await fetch(`${base}${TICKETS}`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ Title: title, Status: 'New' }),
            });
            if (res.status !== 201) throw new Error(`create answered ${res.status}`);
            const { id } = (await res.json()) as { id: string };
            expect(acked.has(id)).toBe(false);
            acked.set(id, title);
          } catch (error) {
            if (killed) return; // the kill cut this one off: never acknowledged
            throw error;
          }
        }
      };
      const writers = Array.from({ length: 4 }, (_, w) => writer(w));
      // Kill mid-stream: after 60 acknowledged writes, with four more in flight.
      await until(async () => acked.size >= 60, 60_000, '60 acknowledged writes');
      const pid = server.pid ?? 0;
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      killed = true;
      process.kill(-pid, 'SIGKILL');
      await exited;
      await Promise.all(writers);
      expect(acked.size).toBeGreaterThanOrEqual(60);

      // The same folder again: every acknowledged record, as written.
      server = await start(port);
      const after = await token();
      for (const [id, title] of acked) {
        const res = await fetch(`${base}${TICKETS}/${id}`, {
          headers: { Authorization: `Bearer ${after}` },
        });
        expect(res.status, id).toBe(200);
        expect(((await res.json()) as { Title: string }).Title, id).toBe(title);
      }
      const fresh = await fetch(`${base}${TICKETS}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${after}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ Title: 'after the restart', Status: 'New' }),
      });
      expect(fresh.status).toBe(201);
      expect(acked.has(((await fresh.json()) as { id: string }).id)).toBe(false);
    },
  );
});

describe('an upload cut at any point', () => {
  let h: Harness;
  let server: Server;
  let port = 0;
  let ticket = '';
  const BOUNDARY = '----wsc-faults';

  beforeAll(async () => {
    h = await createHarness();
    const tickets = h.deps.workspace.find('apps', 'support-tickets');
    if (!tickets) throw new Error('demo workspace missing');
    ticket =
      (
        await insertRecords(h.db, tickets, [{ Title: 'Cut', Status: 'New' }], h.users.admin.email)
      )[0]?.id ?? '';
    ({ server, port } = await startServer(h.app.fetch, {
      port: 0,
      host: '127.0.0.1',
      limits: h.config.server,
    }));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await h.close();
  });

  async function files(): Promise<string[]> {
    const entries = await fs
      .readdir(h.config.blobDir, { recursive: true, withFileTypes: true })
      .catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  }
  const rows = async () =>
    (await h.db.selectFrom('attachments').select('id').where('record_id', '=', ticket).execute())
      .length;

  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nhalf\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const file = Buffer.alloc(2 * 1024 * 1024, 9);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const body = Buffer.concat([head, file, tail]);
  const points: Array<[string, number]> = [
    ['before the body', 0],
    ['inside the description part', 60],
    ['inside the file part head', head.length - 5],
    ['at the first file byte', head.length],
    ['in the middle of the file', head.length + file.length / 2],
    ['at the file end, before the boundary', head.length + file.length],
    ['inside the closing boundary', body.length - 6],
    ['all but the last byte', body.length - 1],
  ];

  for (const how of ['FIN', 'RST'] as const) {
    it.each(points)(`${how} %s (byte %i): no row, no file`, async (_where, cut) => {
      const rowsBefore = await rows();
      const filesBefore = await files();
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      const write = (data: Buffer | string) =>
        new Promise<void>((resolve) => socket.write(data, () => resolve()));
      await write(
        `POST /v1/apps/support-tickets/${ticket}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Authorization: Bearer ${h.tokens.admin}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
      for (let at = 0; at < cut; at += 256 * 1024)
        await write(body.subarray(at, Math.min(cut, at + 256 * 1024)));
      // Let the server take in what was sent (temp file created, bytes written) before the cut.
      await sleep(100);
      if (how === 'RST') socket.resetAndDestroy();
      else socket.end();
      await closed;
      // Nothing was acknowledged: no answer (RST), or a 400 for the short body (FIN).
      expect(received).toMatch(how === 'RST' ? /^$/ : /^(|HTTP\/1\.1 400 )/);
      await until(
        async () => (await files()).filter((f) => f.startsWith('.upload-')).length === 0,
        5_000,
        'the temp file to be removed',
      );
      // A little longer, in case a late commit were on its way.
      await sleep(100);
      expect(await rows()).toBe(rowsBefore);
      expect((await files()).sort()).toEqual(filesBefore.sort());
    });
  }

  it('the same upload, sent whole, is stored (the cuts above are what made the difference)', async () => {
    const res = await fetch(
      `http://127.0.0.1:${port}/v1/apps/support-tickets/${ticket}/attachments`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${h.tokens.admin}`,
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body,
      },
    );
    expect(res.status).toBe(202);
    expect(await rows()).toBe(1);
    expect((await files()).filter((f) => !f.startsWith('.upload-'))).toHaveLength(1);
  });
});
