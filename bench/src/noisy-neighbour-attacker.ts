// The noisy neighbour of `pnpm bench -- noisy-neighbour`, in a process of its own (so that its
// sockets and loops do not slow the measuring process): one credential signs in again and again
// and tries to open 1,000 live event streams (6 per session), and every stream it gets sends
// presence changes as fast as the BFF takes them (at once after a 204, after Retry-After on a
// 429; a refused sign-in waits its Retry-After too). Loopback only, bounded by BFF_URL's host and ATTACK_MS. Writes its counts as JSON to
// OUT_FILE, and OUT_FILE.started once the attack is under way.
import { writeFileSync } from 'node:fs';
import http from 'node:http';

const BFF_URL = process.env.BFF_URL ?? '';
const CLIENT_ID = process.env.CLIENT_ID ?? '';
const CLIENT_SECRET = process.env.CLIENT_SECRET ?? '';
const ATTACK_MS = Number(process.env.ATTACK_MS ?? '30000');
const OUT_FILE = process.env.OUT_FILE ?? '';
const STREAM_ATTEMPTS = 1_000;
const PER_SESSION = 6;
/** Records that exist in the demo workspace: presence names only existing records. */
const RECORDS = Array.from({ length: 10 }, (_, i) => `SUP-${i + 1}`);

if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(BFF_URL)) throw new Error('BFF_URL must be loopback');

const counts = {
  signIns: 0,
  signInsRefused: 0,
  streamsOpened: 0,
  streamsRefused: {} as Record<string, number>,
  streamsMaxOpen: 0,
  presenceAccepted: 0,
  presenceRefused: {} as Record<string, number>,
  presenceErrors: 0,
};
const deadline = Date.now() + ATTACK_MS;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const open = new Set<http.ClientRequest>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bump = (table: Record<string, number>, key: number) => {
  table[String(key)] = (table[String(key)] ?? 0) + 1;
};

function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${BFF_URL}${path}`,
      { method, agent, headers: { ...headers, Origin: BFF_URL } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

async function signIn(): Promise<string | undefined> {
  const res = await request(
    'POST',
    '/bff/login',
    { 'Content-Type': 'application/json', 'X-CSRF': '1' },
    JSON.stringify({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, region: 'default' }),
  );
  if (res.status !== 200) {
    counts.signInsRefused += 1;
    // As fast as the BFF allows: a refused sign-in waits its Retry-After (within the attack).
    const wait = Number(res.headers['retry-after'] ?? '1') * 1000;
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
    return undefined;
  }
  counts.signIns += 1;
  return (res.headers['set-cookie']?.[0] ?? '').split(';')[0];
}

/** Opens a stream on its own socket; resolves with its connection id, or the refusal's status. */
function openStream(cookie: string): Promise<string | number> {
  return new Promise((resolve) => {
    const req = http.get(`${BFF_URL}/bff/events`, { headers: { Cookie: cookie }, agent: false });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(res.statusCode ?? 0);
        return;
      }
      open.add(req);
      counts.streamsMaxOpen = Math.max(counts.streamsMaxOpen, open.size);
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const hello = /event: hello\ndata: (\{[^\n]*\})/.exec(buffer);
        if (hello) {
          resolve((JSON.parse(hello[1] ?? '{}') as { connectionId: string }).connectionId);
          buffer = '';
        } else if (buffer.length > 65_536) buffer = '';
      });
      res.on('close', () => open.delete(req));
    });
    req.on('error', () => resolve(0));
  });
}

/** Presence as fast as the BFF takes it, until the stream is gone or time is up. */
async function flood(cookie: string, connectionId: string) {
  let i = 0;
  while (Date.now() < deadline) {
    i += 1;
    const record = {
      recordType: 'apps',
      alias: 'support-tickets',
      recordId: RECORDS[i % RECORDS.length],
      editing: i % 2 === 0,
    };
    let res;
    try {
      res = await request(
        'PUT',
        '/bff/presence',
        { Cookie: cookie, 'X-CSRF': '1', 'Content-Type': 'application/json' },
        JSON.stringify({ connectionId, record }),
      );
    } catch {
      counts.presenceErrors += 1;
      return;
    }
    if (res.status === 204) {
      counts.presenceAccepted += 1;
      continue;
    }
    bump(counts.presenceRefused, res.status);
    if (res.status !== 429) return;
    const wait = Number(res.headers['retry-after'] ?? '1') * 1000;
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
}

async function main() {
  const floods: Promise<void>[] = [];
  let cookie: string | undefined;
  let inSession = PER_SESSION;
  for (let attempt = 0; attempt < STREAM_ATTEMPTS && Date.now() < deadline; attempt += 1) {
    if (inSession >= PER_SESSION || !cookie) {
      cookie = await signIn();
      inSession = 0;
      if (attempt === 0) writeFileSync(`${OUT_FILE}.started`, '');
      if (!cookie) continue;
    }
    inSession += 1;
    const opened = await openStream(cookie);
    if (typeof opened === 'string') {
      counts.streamsOpened += 1;
      floods.push(flood(cookie, opened));
    } else bump(counts.streamsRefused, opened);
  }
  await Promise.all(floods);
  for (const req of open) req.destroy();
  agent.destroy();
  writeFileSync(OUT_FILE, JSON.stringify(counts));
}

await main();
process.exit(0);
