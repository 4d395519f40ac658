// A misbehaving stand-in for the workspace API on a raw TCP socket (node:net), so it can send
// what no HTTP library would: garbage instead of a status line, broken headers, a body shorter
// than its Content-Length, or nothing at all. The token endpoint and `/v1/me` answer properly (so
// a BFF can sign in) unless `tokenMode` says otherwise; any other path chooses its fault by a
// segment `fault-<mode>` (`/v1/apps/fault-reset/X-1`); other paths get `200 {"ok":true}`.
import net from 'node:net';

export const FAULT_MODES = [
  'hang',
  'reset',
  'garbage',
  'bad-headers',
  'truncated',
  'stall-body',
  'close-early',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export type BadUpstream = {
  /** The API base without `/v1` (what startBff takes). */
  baseUrl: string;
  /** The API base, ending in `/v1`. */
  apiUrl: string;
  /** How the token endpoint misbehaves, or `ok`. */
  tokenMode: FaultMode | 'ok';
  /** Requests seen, by path. */
  seen: string[];
  close: () => Promise<void>;
};

const ME = {
  id: '6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f11',
  email: 'fault@example.com',
  firstName: 'Fault',
  lastName: 'Injector',
  jobTitle: 'Chaos',
  status: 'ACTIVE',
  role: 'ADMIN',
};

function answer(socket: net.Socket, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function misbehave(socket: net.Socket, mode: FaultMode): void {
  switch (mode) {
    case 'hang':
      return; // never a byte back; the socket stays open until the peer gives up
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'garbage':
      socket.end('\x00\x01SPDY?? not http at all \xff\xfe\r\n\r\n');
      return;
    case 'bad-headers':
      socket.end('HTTP/1.1 200 OK\r\nContent-Type application/json\r\n\x01\x02: x\r\n\r\n{}');
      return;
    case 'truncated':
      // Headers promise 1000 bytes; 10 arrive, then the connection closes.
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"items":[',
      );
      return;
    case 'stall-body':
      // Headers and a first chunk, then nothing (the socket stays open).
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"items":[',
      );
      return;
    case 'close-early':
      socket.end();
      return;
  }
}

/**
 * Starts the misbehaving upstream on a loopback port.
 *
 * @example
 * const up = await startBadUpstream(); // BFF: WORKSPACE_API_URL=up.apiUrl
 * await fetch(`${bff}/api/v1/apps/fault-hang/X-1`, ...); // 504 after UPSTREAM_TIMEOUT_MS
 */
export async function startBadUpstream(): Promise<BadUpstream> {
  const sockets = new Set<net.Socket>();
  const state: BadUpstream = {
    baseUrl: '',
    apiUrl: '',
    tokenMode: 'ok',
    seen: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let handled = false;
    socket.on('data', (chunk: Buffer) => {
      if (handled) return;
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? '0');
      if (buffered.length - (end + 4) < length) return; // wait for the whole body
      handled = true;
      const [method = '', target = ''] = head.split('\r\n')[0]?.split(' ') ?? [];
      state.seen.push(`${method} ${target}`);
      if (target.startsWith('/oauth/token')) {
        if (state.tokenMode !== 'ok') misbehave(socket, state.tokenMode);
        else
          answer(socket, 200, {
            access_token: `tok-${Math.random().toString(36).slice(2)}`,
            token_type: 'Bearer',
            expires_in: 3600,
          });
        return;
      }
      if (target.startsWith('/v1/me')) {
        answer(socket, 200, ME);
        return;
      }
      const mode = /\/fault-([a-z-]+)(?:\/|\?|$)/.exec(target)?.[1] as FaultMode | undefined;
      if (mode && (FAULT_MODES as readonly string[]).includes(mode)) misbehave(socket, mode);
      else answer(socket, 200, { ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  state.baseUrl = `http://127.0.0.1:${port}`;
  state.apiUrl = `${state.baseUrl}/v1`;
  return state;
}
