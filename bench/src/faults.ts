// Faults, with randomized loops (the fast, deterministic cases are tests in the apps' suites):
// 1. kill -9 of the API during a stream of acknowledged writes loses none, on PGlite and on
//    PostgreSQL: writers record every id the API acknowledged (201), the API is killed at a random
//    moment, restarted on the same data, and every acknowledged record must be there as written.
// 2. Uploads cut at random points (in the part head, the file, the closing boundary; FIN or RST;
//    straight to the API or through the BFF) leave no attachment row and no file.
// 3. A BFF restart (SIGTERM or kill -9) keeps its sessions: the same cookies work afterwards.
// 4. A misbehaving upstream (hanging, resetting, garbage, broken headers, short or stalled
//    bodies) gives the console a 502/504 problem+json or a response that ends, never a hang.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type http from 'node:http';
import { initDeps, parseEnv } from 'workspace-api/tools';

import type { ApiProcess } from './lib/api.ts';
import type { FaultMode } from './lib/bad-upstream.ts';
import type { Bench, BenchContext } from './lib/bench.ts';
import type { Section } from './lib/report.ts';
import type { BffProcess, Credential } from './lib/stack.ts';
import { prepareBenchStore } from './lib/agents.ts';
import { fetchToken, startApi } from './lib/api.ts';
import { FAULT_MODES, startBadUpstream } from './lib/bad-upstream.ts';
import { numberOption } from './lib/bench.ts';
import { keepAliveAgent, timedRequest } from './lib/http.ts';
import { startPostgres } from './lib/postgres.ts';
import { freePort, tempDir } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { bffHeaders, bffLogin, startBff } from './lib/stack.ts';
import { formatMs } from './lib/stats.ts';

const TICKETS = '/v1/apps/support-tickets';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);

/** SIGKILL to the process group; resolves when the process has exited. */
async function kill9(child: { child: ApiProcess['child']; pid: number }): Promise<void> {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGKILL');
  await exited;
}

// ---------------------------------------------------------------------------------------------
// 1. kill -9 during acknowledged writes

type KillRound = {
  round: number;
  killAfterMs: number;
  acknowledged: number;
  missing: string[];
  changed: string[];
  inFlight: number;
  inFlightCommitted: number;
  restartMs: number;
  reusedIds: number;
};

async function killDuringWrites(
  ctx: BenchContext,
  kind: 'pglite' | 'postgres',
  rounds: number,
  writers: number,
): Promise<{ rounds: KillRound[]; errors: string[] }> {
  const tmp = await tempDir(`faults-kill-${kind}`);
  const pg =
    kind === 'postgres'
      ? await startPostgres({
          shared_buffers: '128MB',
          effective_cache_size: '1GB',
          maintenance_work_mem: '64MB',
          max_wal_size: '1GB',
          synchronous_commit: 'on',
        })
      : undefined;
  const agent = keepAliveAgent(writers + 4);
  const errors: string[] = [];
  const results: KillRound[] = [];
  let api: ApiProcess | undefined;
  try {
    const dataDir = path.join(tmp.dir, 'api');
    const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
    const { demo } = await prepareBenchStore({
      dataDir,
      ...(pg ? { databaseUrl: pg.url } : {}),
    });
    api = await startApi(`faults-kill-${kind}`, env);
    for (let round = 1; round <= rounds; round += 1) {
      const running: ApiProcess = api;
      const token = await fetchToken(agent, running.url, demo.admin);
      const nonce = randomBytes(4).toString('hex');
      const acked = new Map<string, string>();
      const pending = new Set<string>();
      let stopped = false;
      const writer = async (w: number) => {
        for (let n = 0; !stopped; n += 1) {
          const title = `kill9 ${kind} ${nonce} r${round} w${w} n${n}`;
          pending.add(title);
          try {
            const res = await timedRequest(agent, `${running.url}${TICKETS}`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ Title: title, Status: 'New', Priority: String(n % 5) }),
              timeoutMs: 30_000,
            });
            if (res.status === 201) {
              const id = (JSON.parse(res.body.toString('utf8')) as { id?: string }).id;
              if (typeof id !== 'string') errors.push(`round ${round}: 201 without an id`);
              else {
                if (acked.has(id)) errors.push(`round ${round}: id ${id} acknowledged twice`);
                acked.set(id, title);
              }
              pending.delete(title);
            } else {
              pending.delete(title);
              if (!stopped)
                errors.push(
                  `round ${round}: create answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`,
                );
            }
          } catch {
            // The API was killed under this request: it stays pending (sent, never acknowledged).
            return;
          }
        }
      };
      const loops = Array.from({ length: writers }, (_, w) => writer(w));
      const killAfterMs = Math.round(between(300, 4000));
      await sleep(killAfterMs);
      await kill9(running);
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      const inFlight = [...pending];

      // Restart on the same data, then check every acknowledged write.
      const restartStarted = performance.now();
      api = await startApi(`faults-kill-${kind}`, env);
      const restartMs = performance.now() - restartStarted;
      const after = await fetchToken(agent, api.url, demo.admin);
      const missing: string[] = [];
      const changed: string[] = [];
      for (const [id, title] of acked) {
        const res = await timedRequest(agent, `${api.url}${TICKETS}/${id}`, {
          headers: { Authorization: `Bearer ${after}` },
          timeoutMs: 30_000,
        });
        if (res.status !== 200) missing.push(`${id} (${res.status})`);
        else {
          const record = JSON.parse(res.body.toString('utf8')) as Record<string, string>;
          if (record.Title !== title) changed.push(`${id}: ${record.Title} != ${title}`);
        }
      }
      // Writes in flight at the kill: committed or not, both are allowed; count them.
      let inFlightCommitted = 0;
      for (const title of inFlight) {
        const filter = encodeURIComponent(`Title=="${title}"`);
        const res = await timedRequest(agent, `${api.url}${TICKETS}?filter=${filter}&first=5`, {
          headers: { Authorization: `Bearer ${after}` },
          timeoutMs: 30_000,
        });
        const total = (JSON.parse(res.body.toString('utf8')) as { total?: number }).total ?? 0;
        if (res.status !== 200) errors.push(`round ${round}: search answered ${res.status}`);
        if (total > 1) errors.push(`round ${round}: "${title}" stored ${total} times`);
        inFlightCommitted += total > 0 ? 1 : 0;
      }
      // A new record after the restart must not reuse an acknowledged id.
      const fresh = await timedRequest(agent, `${api.url}${TICKETS}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${after}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ Title: `after restart ${nonce}`, Status: 'New' }),
        timeoutMs: 30_000,
      });
      const freshId = (JSON.parse(fresh.body.toString('utf8')) as { id?: string }).id ?? '';
      const reusedIds = acked.has(freshId) ? 1 : 0;
      if (fresh.status !== 201) errors.push(`round ${round}: create after restart ${fresh.status}`);
      const result: KillRound = {
        round,
        killAfterMs,
        acknowledged: acked.size,
        missing,
        changed,
        inFlight: inFlight.length,
        inFlightCommitted,
        restartMs,
        reusedIds,
      };
      results.push(result);
      ctx.log(
        `faults kill -9 ${kind} round ${round}: killed after ${killAfterMs} ms, ${acked.size} acknowledged, ${missing.length} missing, ${changed.length} changed, ${inFlight.length} in flight (${inFlightCommitted} committed), restart ${formatMs(restartMs)}`,
      );
    }
    return { rounds: results, errors };
  } finally {
    agent.destroy();
    await api?.stop();
    await pg?.stop();
    await tmp.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Uploads cut at random points

type CutWhere = 'part head' | 'file' | 'closing boundary' | 'last byte';
type Cut = {
  via: 'direct' | 'bff';
  where: CutWhere;
  how: 'FIN' | 'RST';
  fileBytes: number;
  sent: number;
  length: number;
  answered: string;
  settledMs: number;
  leaked: string;
};

/** Every file under a folder, relative paths. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Sends the head of an upload with its full Content-Length, then `cut` bytes of the body, waits a
 * little, and ends the connection with FIN or RST. Resolves with whatever came back.
 */
async function cutUpload(options: {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  contentType: string;
  cut: number;
  how: 'FIN' | 'RST';
}): Promise<string> {
  const url = new URL(options.url);
  const socket = net.connect(Number(url.port), url.hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const head = [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Type: ${options.contentType}`,
    `Content-Length: ${options.body.length}`,
    ...Object.entries(options.headers).map(([key, value]) => `${key}: ${value}`),
  ].join('\r\n');
  const write = (data: Buffer | string) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.write(data, () => resolve());
    });
  await write(`${head}\r\n\r\n`);
  for (let at = 0; at < options.cut; at += 64 * 1024)
    await write(options.body.subarray(at, Math.min(options.cut, at + 64 * 1024)));
  await sleep(between(0, 200));
  if (options.how === 'RST') socket.resetAndDestroy();
  else {
    socket.end();
    // The server closes a half-closed upload; do not wait forever if it does not.
    await Promise.race([closed, sleep(2_000)]);
    socket.destroy();
  }
  await closed;
  return /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? '';
}

function uploadBody(fileBytes: number): {
  body: Buffer;
  contentType: string;
  headLength: number;
  tailLength: number;
} {
  const boundary = `----cut${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\ncut upload\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, randomBytes(fileBytes), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
    headLength: head.length,
    tailLength: tail.length,
  };
}

async function cutUploads(
  ctx: BenchContext,
  count: number,
): Promise<{
  cuts: Cut[];
  controls: number;
  controlFailures: string[];
  rows: { before: number; after: number };
  files: { before: number; after: number; orphans: string[]; missing: string[]; temps: string[] };
}> {
  const tmp = await tempDir('faults-uploads');
  const agent = keepAliveAgent(4);
  let api: ApiProcess | undefined;
  let bff: BffProcess | undefined;
  try {
    const dataDir = path.join(tmp.dir, 'api');
    const blobDir = path.join(dataDir, 'blobs');
    const { demo } = await prepareBenchStore({ dataDir });
    const rowsOf = async () => {
      const { deps, close } = await initDeps(
        parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_RPS: '0' }),
      );
      try {
        return await deps.db.selectFrom('attachments').select(['id', 'blob_key']).execute();
      } finally {
        await close();
      }
    };
    const rowsBefore = await rowsOf();
    const filesBefore = await listFiles(blobDir);
    // Free space is not what this checks (the shared machine's disk varies): 0 turns the rule off.
    api = await startApi('faults-uploads-api', { DATA_DIR: dataDir, BLOB_MIN_FREE_BYTES: '0' });
    bff = await startBff('faults-uploads-bff', api.url);
    const token = await fetchToken(agent, api.url, demo.admin);
    const cookie = await bffLogin(agent, bff.url, demo.admin);
    const listCount = async (id: string) => {
      const res = await timedRequest(agent, `${api?.url}${TICKETS}/${id}/attachments`, {
        headers: { Authorization: `Bearer ${token}` },
        timeoutMs: 30_000,
      });
      return (JSON.parse(res.body.toString('utf8')) as unknown[]).length;
    };
    const cuts: Cut[] = [];
    const controlFailures: string[] = [];
    let controls = 0;
    for (let i = 0; i < count; i += 1) {
      const via = i % 2 === 0 ? 'direct' : 'bff';
      const target = `${TICKETS}/SUP-${1 + (i % 20)}/attachments`;
      const url = via === 'direct' ? `${api.url}${target}` : `${bff.url}/api${target}`;
      const headers =
        via === 'direct' ? { Authorization: `Bearer ${token}` } : bffHeaders(cookie, bff.url);
      const recordId = `SUP-${1 + (i % 20)}`;
      const before = await listCount(recordId);
      const fileBytes = Math.round(between(64 * 1024, 4 * 1024 * 1024));
      const upload = uploadBody(fileBytes);
      const roll = Math.random();
      const where: CutWhere =
        roll < 0.15
          ? 'part head'
          : roll < 0.75
            ? 'file'
            : roll < 0.9
              ? 'closing boundary'
              : 'last byte';
      const length = upload.body.length;
      const cut =
        where === 'part head'
          ? Math.floor(Math.random() * upload.headLength)
          : where === 'file'
            ? upload.headLength + Math.floor(Math.random() * fileBytes)
            : where === 'closing boundary'
              ? length - upload.tailLength + Math.floor(Math.random() * (upload.tailLength - 1))
              : length - 1;
      const how = Math.random() < 0.5 ? 'FIN' : 'RST';
      const answered = await cutUpload({
        url,
        headers,
        body: upload.body,
        contentType: upload.contentType,
        cut,
        how,
      });
      // Wait for the API to notice and clean up: no temp file, the same number of attachments.
      // Settled: no temp file and the same number of attachments, for 500 ms in a row (a cut
      // through the BFF reaches the API a moment later).
      const settleStart = performance.now();
      let leaked = '';
      let stableSince: number | undefined;
      for (;;) {
        const temps = (await listFiles(blobDir)).filter((f) =>
          path.basename(f).startsWith('.upload-'),
        );
        const now = await listCount(recordId);
        if (temps.length === 0 && now === before) {
          stableSince ??= performance.now();
          if (performance.now() - stableSince >= 500) break;
        } else stableSince = undefined;
        if (performance.now() - settleStart > 15_000) {
          leaked = `${temps.length} temp file(s), ${now - before} new row(s) after 15 s`;
          break;
        }
        await sleep(50);
      }
      const settledMs = (stableSince ?? performance.now()) - settleStart;
      cuts.push({ via, where, how, fileBytes, sent: cut, length, answered, settledMs, leaked });
      if (leaked)
        ctx.log(
          `faults upload ${i + 1}: LEAK ${via} cut at ${cut}/${length} (${where}, ${how}): ${leaked}`,
        );

      // A complete upload after every tenth cut: the harness itself must see successes.
      if (i % 10 === 9) {
        controls += 1;
        const full = uploadBody(16 * 1024);
        const res = await timedRequest(agent, url, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': full.contentType },
          body: full.body,
          timeoutMs: 30_000,
        });
        if (res.status !== 202) controlFailures.push(`${via}: ${res.status}`);
        else if ((await listCount(recordId)) !== before + 1)
          controlFailures.push(`${via}: 202 but no new row`);
      }
    }
    ctx.log(`faults uploads: ${cuts.length} cut, ${controls} complete controls`);
    await bff.stop();
    bff = undefined;
    await api.stop();
    api = undefined;
    // With the API stopped: the attachments table against the blob folder.
    const rowsAfter = await rowsOf();
    const filesAfter = await listFiles(blobDir);
    const keys = new Set(rowsAfter.flatMap((row) => (row.blob_key ? [row.blob_key] : [])));
    const fileKeys = new Set(filesAfter.map((f) => path.basename(f)));
    return {
      cuts,
      controls,
      controlFailures,
      rows: { before: rowsBefore.length, after: rowsAfter.length },
      files: {
        before: filesBefore.length,
        after: filesAfter.length,
        orphans: filesAfter.filter((f) => !keys.has(path.basename(f))),
        missing: [...keys].filter((key) => !fileKeys.has(key)),
        temps: filesAfter.filter((f) => path.basename(f).startsWith('.upload-')),
      },
    };
  } finally {
    agent.destroy();
    await bff?.stop();
    await api?.stop();
    await tmp.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. BFF restarts keep sessions

type RestartRound = {
  round: number;
  signal: 'SIGTERM' | 'SIGKILL';
  kept: number;
  of: number;
  restartMs: number;
  detail: string;
};

async function bffRestarts(ctx: BenchContext, rounds: number): Promise<RestartRound[]> {
  const tmp = await tempDir('faults-bff-restart');
  let api: ApiProcess | undefined;
  let bff: BffProcess | undefined;
  try {
    const dataDir = path.join(tmp.dir, 'api');
    const { demo, people } = await prepareBenchStore({ dataDir, count: 6, prefix: 'restart' });
    api = await startApi('faults-restart-api', { DATA_DIR: dataDir });
    const env = {
      PORT: String(await freePort()),
      SESSION_SECRET: randomBytes(36).toString('base64url'),
      BFF_DATA_DIR: path.join(tmp.dir, 'bff'),
    };
    const credentials: Credential[] = [demo.admin, demo.agent, ...people];
    let agent = keepAliveAgent(4);
    bff = await startBff('faults-restart-bff', api.url, env);
    const sessions = await Promise.all(
      credentials.map(async (credential) => ({
        credential,
        cookie: await bffLogin(agent, bff?.url ?? '', credential),
      })),
    );
    const results: RestartRound[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      const signal = round % 2 === 1 ? 'SIGKILL' : 'SIGTERM';
      const running: BffProcess = bff;
      // Use every session just before the restart (tokens cached, sessions touched).
      for (const s of sessions) {
        const res = await timedRequest(agent, `${running.url}/api/v1/me`, {
          headers: bffHeaders(s.cookie, running.url),
          timeoutMs: 30_000,
        });
        if (res.status !== 200) throw new Error(`BFF before restart: ${res.status}`);
      }
      agent.destroy();
      if (signal === 'SIGKILL') await kill9(running);
      else await running.stop();
      await running.remove();
      const started = performance.now();
      bff = await startBff('faults-restart-bff', api.url, env);
      const restartMs = performance.now() - started;
      agent = keepAliveAgent(4);
      let kept = 0;
      const problems: string[] = [];
      for (const s of sessions) {
        const current: BffProcess = bff;
        const me = await timedRequest(agent, `${current.url}/api/v1/me`, {
          headers: bffHeaders(s.cookie, current.url),
          timeoutMs: 30_000,
        });
        const session = await timedRequest(agent, `${current.url}/bff/session`, {
          headers: bffHeaders(s.cookie, current.url),
          timeoutMs: 30_000,
        });
        const email = (JSON.parse(me.body.toString('utf8') || '{}') as { email?: string }).email;
        if (me.status === 200 && session.status === 200 && email === s.credential.email) kept += 1;
        else
          problems.push(
            `${s.credential.email}: /api/v1/me ${me.status}, /bff/session ${session.status}`,
          );
      }
      results.push({
        round,
        signal,
        kept,
        of: sessions.length,
        restartMs,
        detail: problems.slice(0, 3).join('; '),
      });
      ctx.log(
        `faults BFF restart ${round} (${signal}): ${kept}/${sessions.length} sessions kept, restart ${formatMs(restartMs)}`,
      );
    }
    agent.destroy();
    return results;
  } finally {
    await bff?.stop();
    await api?.stop();
    await tmp.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// 4. A misbehaving upstream

type UpstreamCase = {
  what: string;
  statuses: Record<string, number>;
  problemJson: number;
  of: number;
  maxMs: number;
  boundMs: number;
};

async function badUpstream(ctx: BenchContext, perCase: number): Promise<UpstreamCase[]> {
  const upstream = await startBadUpstream();
  const timeoutMs = 2_000;
  const idleMs = 2_000;
  let bff: BffProcess | undefined;
  try {
    bff = await startBff('faults-upstream-bff', upstream.baseUrl, {
      UPSTREAM_TIMEOUT_MS: String(timeoutMs),
      UPSTREAM_BODY_IDLE_TIMEOUT_MS: String(idleMs),
      WORKSPACE_API_PROFILE: 'extended',
    });
    const running: BffProcess = bff;
    const agent: http.Agent = keepAliveAgent(8);
    const credential = { email: 'fault@example.com', clientId: 'c', clientSecret: 's' };
    const cookie = await bffLogin(agent, running.url, credential);
    // GET/HEAD are retried twice (backoff under 2 s each): a hang can take 3 timeouts + backoff.
    const bound = (mode: FaultMode, method: string) =>
      mode === 'hang' || mode === 'stall-body'
        ? (method === 'GET' ? 3 : 1) * timeoutMs + 2 * 2_000 + 2_000
        : 3 * 2_000 + 2_000;
    const cases: UpstreamCase[] = [];
    const record = async (
      what: string,
      boundMs: number,
      send: () => Promise<{ status: string; problem: boolean; ms: number }>,
    ) => {
      const c: UpstreamCase = { what, statuses: {}, problemJson: 0, of: 0, maxMs: 0, boundMs };
      for (let i = 0; i < perCase; i += 1) {
        const r = await send();
        c.of += 1;
        c.statuses[r.status] = (c.statuses[r.status] ?? 0) + 1;
        if (r.problem) c.problemJson += 1;
        c.maxMs = Math.max(c.maxMs, r.ms);
      }
      cases.push(c);
      ctx.log(`faults upstream ${what}: ${JSON.stringify(c.statuses)}, max ${formatMs(c.maxMs)}`);
    };
    const via = async (method: string, target: string, bodyless = true) => {
      const started = performance.now();
      try {
        const res = await timedRequest(agent, `${running.url}/api${target}`, {
          method,
          headers: {
            ...bffHeaders(cookie, running.url),
            ...(bodyless ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(bodyless ? {} : { body: '{"Title":"x"}' }),
          timeoutMs: 60_000,
        });
        const type = res.headers['content-type'] ?? '';
        return {
          status: String(res.status),
          problem: type.startsWith('application/problem+json'),
          ms: performance.now() - started,
        };
      } catch (error) {
        const message = (error as Error).message;
        return {
          status: /cut off|aborted|socket hang up|ECONNRESET/.test(message)
            ? 'cut off (response ended)'
            : `no answer: ${message.slice(0, 60)}`,
          problem: false,
          ms: performance.now() - started,
        };
      }
    };
    for (const mode of FAULT_MODES) {
      await record(`GET, upstream ${mode}`, bound(mode, 'GET'), () =>
        via('GET', `/v1/apps/fault-${mode}/X-1`),
      );
      await record(`PUT, upstream ${mode}`, bound(mode, 'PUT'), () =>
        via('PUT', `/v1/apps/fault-${mode}/X-1`, false),
      );
    }
    // Sign-in against a token endpoint that misbehaves.
    for (const mode of FAULT_MODES) {
      upstream.tokenMode = mode;
      await record(`sign-in, token endpoint ${mode}`, bound(mode, 'GET'), async () => {
        const started = performance.now();
        const res = await timedRequest(agent, `${running.url}/bff/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: running.url },
          body: JSON.stringify({ clientId: 'c', clientSecret: 's', region: 'default' }),
          timeoutMs: 60_000,
        }).catch((error: Error) => ({
          status: `no answer: ${error.message}`,
          headers: {} as http.IncomingHttpHeaders,
        }));
        return {
          status: String(res.status),
          problem: (res.headers['content-type'] ?? '').startsWith('application/problem+json'),
          ms: performance.now() - started,
        };
      });
    }
    upstream.tokenMode = 'ok';
    agent.destroy();
    return cases;
  } finally {
    await bff?.stop();
    await upstream.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function run(ctx: BenchContext): Promise<Section> {
  const killRounds = numberOption(ctx.options, 'rounds', 5, 1, 100);
  const writers = numberOption(ctx.options, 'writers', 8, 1, 64);
  const uploads = numberOption(ctx.options, 'uploads', 100, 1, 10_000);
  const restarts = numberOption(ctx.options, 'restarts', 4, 1, 100);
  const perCase = numberOption(ctx.options, 'per-case', 5, 1, 1000);
  const only = ctx.options.only?.split(',');
  const wanted = (part: string) => !only || only.includes(part);

  const figures: Section['figures'] = [];
  const tables: NonNullable<Section['tables']> = [];
  const notes: string[] = [];

  for (const kind of ['pglite', 'postgres'] as const) {
    if (!wanted(`kill-${kind}`)) continue;
    const { rounds, errors } = await killDuringWrites(ctx, kind, killRounds, writers);
    const acked = rounds.reduce((s, r) => s + r.acknowledged, 0);
    const lost = rounds.reduce((s, r) => s + r.missing.length + r.changed.length, 0);
    const reused = rounds.reduce((s, r) => s + r.reusedIds, 0);
    figures.push({
      name: `kill -9 during writes, ${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}: acknowledged writes lost or changed (of acknowledged, ${rounds.length} rounds)`,
      value: `${lost} of ${acked}`,
      budget: '0',
      pass: lost === 0 && errors.length === 0 && reused === 0,
    });
    tables.push({
      title: `kill -9 of the API during writes (${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${writers} writers)`,
      headers: [
        'round',
        'killed after',
        'acknowledged',
        'missing',
        'changed',
        'in flight at the kill (committed)',
        'id reused after restart',
        'restart to healthy',
      ],
      rows: rounds.map((r) => [
        String(r.round),
        `${r.killAfterMs} ms`,
        String(r.acknowledged),
        r.missing.length === 0 ? '0' : `${r.missing.length}: ${r.missing.slice(0, 3).join(', ')}`,
        r.changed.length === 0 ? '0' : `${r.changed.length}: ${r.changed.slice(0, 2).join(', ')}`,
        `${r.inFlight} (${r.inFlightCommitted})`,
        r.reusedIds === 0 ? 'no' : 'YES',
        formatMs(r.restartMs),
      ]),
    });
    if (errors.length > 0)
      notes.push(`kill -9 ${kind}: other problems: ${errors.slice(0, 5).join('; ')}`);
  }

  if (wanted('uploads')) {
    const u = await cutUploads(ctx, uploads);
    const leaks = u.cuts.filter((c) => c.leaked !== '');
    const clean =
      leaks.length === 0 &&
      u.rows.after === u.rows.before + u.controls &&
      u.files.orphans.length === 0 &&
      u.files.missing.length === 0 &&
      u.files.temps.length === 0 &&
      u.controlFailures.length === 0;
    figures.push({
      name: `uploads cut at random points leaving a row or a file (of ${u.cuts.length}; ${u.controls} complete uploads in between as controls)`,
      value: `${leaks.length}; attachments rows ${u.rows.before} -> ${u.rows.after} (+${u.controls} controls expected); files ${u.files.before} -> ${u.files.after}; orphan files ${u.files.orphans.length}, rows without a file ${u.files.missing.length}, temp files ${u.files.temps.length}`,
      budget: '0, rows and files = before + controls',
      pass: clean,
    });
    const settle = u.cuts.map((c) => c.settledMs).sort((a, b) => a - b);
    const group = (key: (c: Cut) => string) => {
      const map = new Map<string, Cut[]>();
      for (const c of u.cuts) map.set(key(c), [...(map.get(key(c)) ?? []), c]);
      return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
    };
    tables.push({
      title: `Uploads cut at random points (${u.cuts.length}: files of 64 KiB-4 MiB, half straight to the API, half through the BFF)`,
      headers: [
        'path, where cut, how',
        'uploads',
        'leaving a row or file',
        'answers seen before the cut',
        'time to clean up (max)',
      ],
      rows: group((c) => `${c.via}, ${c.where}, ${c.how}`).map(([key, list]) => [
        key,
        String(list.length),
        String(list.filter((c) => c.leaked !== '').length),
        [...new Set(list.map((c) => c.answered || 'none'))].join(', '),
        formatMs(Math.max(...list.map((c) => c.settledMs))),
      ]),
    });
    notes.push(
      `Uploads: time for the API to remove the temp file after a cut, p50 ${formatMs(settle[Math.floor(settle.length / 2)] ?? 0)}, max ${formatMs(settle.at(-1) ?? 0)}.${u.controlFailures.length > 0 ? ` Control failures: ${u.controlFailures.join('; ')}.` : ''}${
        leaks.length > 0
          ? ` Leaks: ${leaks
              .slice(0, 5)
              .map((c) => `${c.via} ${c.where} ${c.how} at ${c.sent}/${c.length}: ${c.leaked}`)
              .join('; ')}`
          : ''
      }`,
    );
  }

  if (wanted('bff-restart')) {
    const r = await bffRestarts(ctx, restarts);
    const kept = r.reduce((s, x) => s + x.kept, 0);
    const of = r.reduce((s, x) => s + x.of, 0);
    figures.push({
      name: `sessions that still work after a BFF restart (${r.length} restarts, kill -9 and SIGTERM alternating)`,
      value: `${kept} of ${of}`,
      budget: 'all',
      pass: kept === of,
    });
    tables.push({
      title:
        'BFF restarts (same data folder, SESSION_SECRET and port; the same cookies afterwards)',
      headers: ['restart', 'signal', 'sessions kept', 'restart to healthy', 'problems'],
      rows: r.map((x) => [
        String(x.round),
        x.signal,
        `${x.kept}/${x.of}`,
        formatMs(x.restartMs),
        x.detail,
      ]),
    });
  }

  if (wanted('upstream')) {
    const cases = await badUpstream(ctx, perCase);
    const bad = cases.filter((c) => {
      const statuses = Object.keys(c.statuses);
      const clearError = statuses.every((s) => s === '502' || s === '504');
      const endedCut = statuses.every((s) => s === 'cut off (response ended)');
      return !((clearError && c.problemJson === c.of) || endedCut) || c.maxMs > c.boundMs;
    });
    figures.push({
      name: `misbehaving upstream: cases without a clear answer in bounded time (of ${cases.length}, ${perCase} requests each)`,
      value: String(bad.length),
      budget: '0 (502/504 problem+json, or a 200 whose body is cut off, within the bound)',
      pass: bad.length === 0,
    });
    tables.push({
      title:
        'A misbehaving upstream, seen by the console (BFF process; UPSTREAM_TIMEOUT_MS and UPSTREAM_BODY_IDLE_TIMEOUT_MS 2 s)',
      headers: ['request, upstream behaviour', 'answers', 'problem+json', 'slowest', 'bound'],
      rows: cases.map((c) => [
        c.what,
        Object.entries(c.statuses)
          .map(([s, n]) => `${s} x${n}`)
          .join(', '),
        `${c.problemJson}/${c.of}`,
        formatMs(c.maxMs),
        formatMs(c.boundMs),
      ]),
    });
  }

  notes.unshift(
    `Method: every process (API, BFF, PostgreSQL) is started by the bench on loopback. kill -9: a fresh store (PGlite folder, or a PostgreSQL 15 from bench/src/lib/postgres.ts as scripts/lib.sh start_postgres does, here with synchronous_commit on), ${writers} writers POST support tickets as fast as the API answers (rate limit off) and keep every id answered 201 with its title; the API's process group gets SIGKILL 0.3-4 s into the round; the API restarts on the same data and every acknowledged id must read back with its title; writes in flight at the kill may or may not exist, but at most once; a record created after the restart must not reuse an acknowledged id. ${killRounds} rounds per store.`,
    `Cut uploads: a raw socket sends the request head with the full Content-Length, then the body up to a random byte (15% in the part head, 60% in the file, 15% in the closing boundary, 10% all but the last byte), waits 0-200 ms and closes with FIN or RST; half straight to the API (bearer), half through the BFF (session). After each cut the bench waits until the blob folder holds no temp file and the record's attachment count is unchanged (15 s at most); after every 10th cut a complete 16 KiB upload must succeed. At the end, with the API stopped, the attachments table is compared with the blob folder: rows = before + controls, no file without a row, no row without a file, no temp file.`,
    'BFF restart: the BFF (PGlite session store in its data folder) is restarted with the same data folder, SESSION_SECRET and port, alternately after kill -9 and after SIGTERM; every session signed in before must still answer /api/v1/me (as the same person) and /bff/session with the same cookie.',
    'Misbehaving upstream: the BFF process in front of a raw-socket fake API (bench/src/lib/bad-upstream.ts) that hangs, resets, sends garbage instead of a status line, sends broken headers, closes after a body shorter than its Content-Length, stalls mid-body, or closes without answering. GET is retried twice by the BFF, PUT never; the bound allows for that. The same cases are automated in apps/bff/test/faults.test.ts.',
  );

  return {
    id: 'faults',
    title: 'Faults: kill -9 during writes, cut uploads, BFF restarts, a misbehaving upstream',
    command: ctx.command,
    date: new Date(),
    machine: machineInfo(),
    figures,
    tables,
    notes,
  };
}

export const faultsBench: Bench = { id: 'faults', title: 'Faults', run };
