// One keep-alive connection pool per API origin (a region), shared by the proxy and by the BFF's
// own calls (sign-in, token refresh, definitions), and warmed at sign-in: a cold sign-in across
// the internet pays a TCP (and TLS) handshake per new connection, so the connections the first
// screen needs are opened while the token request is on its way (DESIGN.md section 7).
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import type { ClientRequestArgs } from 'node:http';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';

/** Keep-alive connection pools to the API, one per scheme (each pools per origin). */
export type UpstreamAgents = { http: WarmHttpAgent; https: WarmHttpsAgent };

/** How long a connection opened ahead waits for a request before it is closed. */
export const SPARE_IDLE_MS = 4_000;

/**
 * How long a pooled connection may sit idle before the BFF closes it, unless the upstream
 * announces a shorter keep-alive window (`Keep-Alive: timeout=N`): then Node's agent closes it a
 * second before the upstream would. A request never goes out on a connection the upstream is
 * about to close (the keep-alive race, ADR 0031); long enough that a user pausing to read keeps
 * their warm connections across the internet.
 */
export const IDLE_CONNECTION_MS = 30_000;

/**
 * Connections opened for a region while a sign-in's token request travels: one each for what the
 * sign-in then reads at once (`/v1/me`, the definitions, the first page). The token's own
 * connection is not counted on: through the bench's delay link it was not there to reuse, and
 * the third read paid a handshake after the other two (`pnpm bench -- remote`, issue 27).
 */
export const WARM_CONNECTIONS = 3;

/**
 * Connections opened ahead of need, per origin (`host:port`), handed to the agent when it would
 * otherwise open a new one. Each closes itself after {@link SPARE_IDLE_MS} unused.
 */
class SpareSockets {
  private readonly byOrigin = new Map<string, Duplex[]>();

  count(origin: string): number {
    return this.byOrigin.get(origin)?.length ?? 0;
  }

  add(origin: string, socket: Duplex & { setTimeout(ms: number): unknown; unref(): unknown }) {
    const list = this.byOrigin.get(origin) ?? [];
    list.push(socket);
    this.byOrigin.set(origin, list);
    const drop = () => this.remove(origin, socket);
    socket.once('close', drop);
    // A refused or reset spare is simply gone; the next request opens its own connection.
    socket.on('error', () => socket.destroy());
    socket.setTimeout(SPARE_IDLE_MS);
    socket.once('timeout', () => socket.destroy());
    // A spare alone never keeps the process alive (agents do the same for idle sockets).
    socket.unref();
  }

  take(origin: string): Duplex | undefined {
    const list = this.byOrigin.get(origin);
    const socket = list?.shift();
    if (list?.length === 0) this.byOrigin.delete(origin);
    if (!socket) return undefined;
    const net = socket as Duplex & { setTimeout(ms: number): unknown; ref(): unknown };
    net.setTimeout(0);
    net.removeAllListeners('timeout');
    net.ref();
    return socket;
  }

  private remove(origin: string, socket: Duplex) {
    const list = this.byOrigin.get(origin);
    if (!list) return;
    const index = list.indexOf(socket);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.byOrigin.delete(origin);
  }
}

/** `host:port` of the options an agent is given (node's ClientRequest fills both in). */
function originOf(options: { host?: string | null; hostname?: string | null; port?: unknown }) {
  return `${options.host ?? options.hostname ?? 'localhost'}:${String(options.port)}`;
}

/** Idle pooled connections of an agent to an origin (its names start with `host:port:`). */
function freeCount(agent: HttpAgent, origin: string): number {
  let count = 0;
  for (const [name, sockets] of Object.entries(agent.freeSockets)) {
    if (name.startsWith(`${origin}:`)) count += sockets?.length ?? 0;
  }
  return count;
}

/**
 * Open connections with `open` until `want` to the origin are idle in `agent` or waiting among
 * its spares; returns how many it opened.
 */
function topUp(
  agent: HttpAgent & { spares: SpareSockets },
  origin: string,
  want: number,
  open: () => Duplex | null | undefined,
): number {
  let opened = 0;
  while (freeCount(agent, origin) + agent.spares.count(origin) < want) {
    const socket = open();
    if (!socket) break;
    agent.spares.add(origin, socket as never);
    opened++;
  }
  return opened;
}

/** The http agent of the pool: a spare connection is used before a new one is opened. */
export class WarmHttpAgent extends HttpAgent {
  readonly spares = new SpareSockets();

  override createConnection(
    options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    return this.spares.take(originOf(options)) ?? super.createConnection(options, callback);
  }

  /** Open connections to `host:port` until `want` are idle or waiting. */
  warm(host: string, port: number, want: number): number {
    return topUp(this, `${host}:${port}`, want, () => super.createConnection({ host, port }));
  }
}

/** The https agent of the pool, with TLS session reuse as node's own agent does. */
export class WarmHttpsAgent extends HttpsAgent {
  readonly spares = new SpareSockets();

  override createConnection(
    options: HttpsRequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    return this.spares.take(originOf(options)) ?? super.createConnection(options, callback);
  }

  /** Open TLS connections to `host:port` until `want` are idle or waiting. */
  warm(host: string, port: number, want: number): number {
    const options: HttpsRequestOptions = {
      ...this.options,
      host,
      port,
      servername: isIP(host) ? '' : host,
    };
    // `_agentKey`: the TLS session is cached and reused as for the agent's own connections.
    const open = () =>
      super.createConnection({
        ...options,
        _agentKey: this.getName(options),
      } as HttpsRequestOptions);
    return topUp(this, `${host}:${port}`, want, open);
  }
}

/** Every pool's options: keep-alive, the most recently used connection first, the idle bound. */
const POOL = { keepAlive: true, scheduling: 'lifo', timeout: IDLE_CONNECTION_MS } as const;

/**
 * The pools. `maxSockets` (per upstream origin, i.e. per region) is the region's in-flight cap,
 * so a request admitted by the proxy's limiter never waits unseen in the agent's queue, and the
 * limiter (which answers 429/503 at once) is what bounds the sockets.
 *
 * @example
 * const agents = createUpstreamAgents(512);
 */
export function createUpstreamAgents(maxSockets: number): UpstreamAgents {
  return {
    // `timeout` is also what makes the agent honour the upstream's Keep-Alive hint: without it,
    // Node's agent ignores the hint. For a request in flight it only emits `timeout`, which the
    // proxy does not act on (its own timers bound a request).
    http: new WarmHttpAgent({ ...POOL, maxSockets }),
    https: new WarmHttpsAgent({ ...POOL, maxSockets }),
  };
}

/**
 * Open connections to the origin of `url` ahead of need, so that `want` are ready (idle in the
 * pool or opened ahead); returns how many it opened. Errors never surface: a spare that fails is
 * dropped, and the request that needed it opens its own.
 *
 * @example
 * warmConnections(agents, region.apiUrl); // at sign-in, before the token request
 */
export function warmConnections(
  agents: UpstreamAgents,
  url: string,
  want = WARM_CONNECTIONS,
): number {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  // As node's ClientRequest names the host: an IPv6 literal without its brackets.
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = target.port === '' ? (secure ? 443 : 80) : Number(target.port);
  return secure ? agents.https.warm(host, port, want) : agents.http.warm(host, port, want);
}
