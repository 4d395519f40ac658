// A long link between the BFF and the API, as the `remote` benchmark needs it: a TCP proxy that
// holds every chunk `oneWayMs` in each direction (and a new connection's first bytes for its
// handshake), in front of a loopback HTTP proxy that logs each request the BFF sends upstream
// (method, path, status, start, end, connection). BFF -> TCP delay -> request log -> API.
//
// Why two hops: the delay must act on the BFF's own TCP connections (a new connection costs a
// round trip before its first byte, a kept-alive one does not), and the count must see HTTP
// requests, which a TCP proxy would have to parse. The log proxy is on loopback (well under a
// millisecond) and keeps its own connections to the API alive, so it adds nothing the BFF's
// connection pool would change.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request the BFF sent upstream, as the log proxy saw it (times: performance.now()). */
export type UpstreamRequest = {
  method: string;
  /** Path and query as sent (`/v1/apps/support-tickets?first=100`). */
  path: string;
  /** 0 until the reply's headers arrived. */
  status: number;
  startedAt: number;
  /** Undefined while the reply is still streaming. */
  endedAt: number | undefined;
  /** Which of the BFF's TCP connections carried it (1, 2, ... in order of opening). */
  connection: number;
};

export type DelayLink = {
  /** What the BFF calls instead of the API (no `/v1`). */
  url: string;
  /** Every upstream request so far, in order of arrival. */
  log: UpstreamRequest[];
  /** TCP connections the BFF has opened to the link so far. */
  connections: () => number;
  /** Requests sent and not yet answered in full. */
  inFlight: () => number;
  /** Changes the one-way delay for what is sent from now on. */
  setDelay: (oneWayMs: number) => void;
  delay: () => number;
  /** Closes every open connection of the BFF (its pool starts cold, as after an idle pause). */
  dropConnections: () => void;
  /** Resolves once nothing has been in flight for `quietMs` (or after `timeoutMs`). */
  quiet: (quietMs: number, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

export type DelayLinkOptions = {
  oneWayMs?: number;
  /**
   * Round trips a new connection waits before its first byte goes through: 1 models a TCP
   * handshake, 2 TCP + TLS 1.3 (the real service is HTTPS).
   */
  handshakeRoundTrips?: number;
};

/**
 * Chunks written after a delay, in order: each leaves `delay()` ms after it arrived (or after
 * `notBefore`, the end of the handshake, if later), never before the one ahead of it.
 */
class DelayedPipe {
  #queue: Array<{ at: number; chunk: Buffer | null }> = [];
  #timer: NodeJS.Timeout | undefined;
  #last = 0;

  constructor(
    private readonly dest: net.Socket,
    private readonly delay: () => number,
    private readonly notBefore: number,
  ) {}

  /** Queues a chunk (`null`: end the destination after what is queued). */
  push(chunk: Buffer | null): void {
    const at = Math.max(Math.max(performance.now(), this.notBefore) + this.delay(), this.#last);
    this.#last = at;
    this.#queue.push({ at, chunk });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer || this.#queue.length === 0) return;
    const wait = Math.max(0, (this.#queue[0]?.at ?? 0) - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    const now = performance.now();
    while (this.#queue.length > 0 && (this.#queue[0]?.at ?? 0) <= now + 0.5) {
      const next = this.#queue.shift();
      if (!next || this.dest.destroyed) continue;
      if (next.chunk === null) this.dest.end();
      else this.dest.write(next.chunk);
    }
    this.#schedule();
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#queue = [];
  }
}

/** The loopback HTTP proxy that logs each request and forwards it to the API. */
function startRequestLog(
  target: string,
  log: UpstreamRequest[],
  connectionOf: (remotePort: number) => number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let inFlight = 0;
  let lastActivity = performance.now();
  const server = http.createServer((request, response) => {
    const entry: UpstreamRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      status: 0,
      startedAt: performance.now(),
      endedAt: undefined,
      connection: connectionOf(request.socket.remotePort ?? -1),
    };
    log.push(entry);
    inFlight += 1;
    const done = () => {
      if (entry.endedAt !== undefined) return;
      entry.endedAt = performance.now();
      lastActivity = entry.endedAt;
      inFlight -= 1;
    };
    const upstream = http.request(
      `${target}${entry.path}`,
      { method: entry.method, headers: request.headers, agent },
      (reply) => {
        entry.status = reply.statusCode ?? 502;
        response.writeHead(entry.status, reply.headers);
        reply.pipe(response);
        reply.on('end', done);
        reply.on('error', done);
      },
    );
    upstream.on('error', () => {
      entry.status = entry.status || 502;
      if (!response.headersSent) response.writeHead(502);
      response.end();
      done();
    });
    response.on('close', done);
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  return {
    server,
    inFlight: () => inFlight,
    lastActivity: () => lastActivity,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/**
 * Starts the link in front of `target` (the API's base URL, e.g. http://127.0.0.1:8080).
 *
 * @example
 * const link = await startDelayLink(api.url, { oneWayMs: 40 });
 * const bff = await startBff('remote-bff', link.url);
 * link.setDelay(0);
 */
export async function startDelayLink(
  target: string,
  options: DelayLinkOptions = {},
): Promise<DelayLink> {
  let oneWayMs = options.oneWayMs ?? 0;
  const handshakeRoundTrips = options.handshakeRoundTrips ?? 1;
  const log: UpstreamRequest[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();
  // Each log-side socket is opened by exactly one client connection: its local port names it.
  const connectionByPort = new Map<number, number>();
  const requestLog = startRequestLog(
    target,
    log,
    (remotePort) => connectionByPort.get(remotePort) ?? 0,
  );
  await new Promise<void>((resolve) => requestLog.server.listen(0, '127.0.0.1', resolve));
  const logPort = (requestLog.server.address() as AddressInfo).port;

  const front = net.createServer((client) => {
    connections += 1;
    const id = connections;
    const delay = () => oneWayMs;
    // The client's first bytes wait for the handshake the loopback accept skipped.
    const handshakeDone = performance.now() + handshakeRoundTrips * 2 * oneWayMs;
    const server = net.connect({ port: logPort, host: '127.0.0.1' });
    server.once('connect', () => connectionByPort.set(server.localPort ?? -1, id));
    client.setNoDelay(true);
    server.setNoDelay(true);
    const up = new DelayedPipe(server, delay, handshakeDone);
    const down = new DelayedPipe(client, delay, 0);
    sockets.add(client);
    client.on('data', (chunk: Buffer) => up.push(chunk));
    client.on('end', () => up.push(null));
    server.on('data', (chunk: Buffer) => down.push(chunk));
    server.on('end', () => down.push(null));
    const teardown = () => {
      up.clear();
      down.clear();
      client.destroy();
      server.destroy();
      sockets.delete(client);
    };
    client.on('error', teardown);
    server.on('error', teardown);
    client.on('close', () => {
      // Let what is already queued downstream go first; then close the other side.
      setTimeout(teardown, oneWayMs + 5);
    });
    server.on('close', () => setTimeout(teardown, oneWayMs + 5));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    connections: () => connections,
    inFlight: requestLog.inFlight,
    setDelay: (ms) => {
      oneWayMs = ms;
    },
    delay: () => oneWayMs,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    quiet: async (quietMs, timeoutMs = 30_000) => {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        const idleFor = performance.now() - requestLog.lastActivity();
        if (requestLog.inFlight() === 0 && idleFor >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await requestLog.close();
    },
  };
}
