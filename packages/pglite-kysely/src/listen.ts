// LISTEN for NOTIFY on PGlite or PostgreSQL, one way for every app of the workspace (the API's token
// cache, the BFF's presence and live events). On PostgreSQL it needs a connection of its own (a
// pooled one would be handed to queries) and reconnects after it drops, reporting the gap.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type ListenHandlers = {
  onNotify: (payload: string) => void;
  /**
   * `false`: notifications may be missed from now on (the connection dropped; it reconnects every
   * second); `true`: they arrive again.
   */
  onState: (listening: boolean) => void;
};

/** Stops listening (and, on PostgreSQL, closes the listening connection). */
export type StopListening = () => Promise<void>;

const RELISTEN_MS = 1_000;

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * LISTEN on the embedded database. One process owns it: its notifications cannot be missed.
 *
 * @example
 * const stop = await listenPglite(pglite, 'auth_changes', { onNotify, onState });
 */
export async function listenPglite(
  pglite: PGlite,
  channel: string,
  handlers: ListenHandlers,
): Promise<StopListening> {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  const stop = await pglite.listen(channel, (payload) => handlers.onNotify(payload));
  handlers.onState(true);
  return stop;
}

/**
 * LISTEN on a PostgreSQL connection of its own; reconnects every second after it drops, reporting
 * the gap through `onState`. Never rejects on an unreachable database: it starts out not listening.
 *
 * @example
 * const stop = await listenPostgres(url, 'auth_changes', { onNotify, onState });
 */
export async function listenPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<StopListening> {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const retryLater = () => {
    if (!stopped) timer = setTimeout(() => void connect(), RELISTEN_MS);
  };
  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = undefined;
    handlers.onState(false);
    lostClient.end().catch(() => undefined);
    retryLater();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => handlers.onNotify(message.payload ?? ''));
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch {
      next.removeAllListeners('end');
      next.on('error', () => undefined);
      await next.end().catch(() => undefined);
      retryLater();
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    handlers.onState(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const current = client;
    client = undefined;
    if (current) {
      current.removeAllListeners('end');
      current.on('error', () => undefined);
      await current.end().catch(() => undefined);
    }
  };
}
