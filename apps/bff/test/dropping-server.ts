// A real loopback HTTP server for the keep-alive race (ADR 0031): it answers every request with
// `answer`, except the next one `drop` names, which it drops unanswered by destroying the socket,
// as a server whose keep-alive window ended does. `pooled`: a request on a connection that had
// served one before; `fresh`: on a new connection.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type SeenRequest = { method: string; body: string; socket: Socket; dropped: boolean };

export type DroppingServer = {
  base: string;
  /** The server itself (a test may set its keepAliveTimeout). */
  http: Server;
  /** Every request, in arrival order. */
  seen: SeenRequest[];
  /** Which request is dropped next (then back to `none`). */
  drop: 'none' | 'pooled' | 'fresh';
  close: () => Promise<void>;
};

/**
 * @example
 * const server = await startDroppingServer('{"ok":true}');
 * server.drop = 'pooled';
 */
export async function startDroppingServer(answer: string): Promise<DroppingServer> {
  const served = new WeakSet<Socket>();
  const state: Omit<DroppingServer, 'base' | 'http' | 'close'> = { seen: [], drop: 'none' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const socket = req.socket;
      const pooled = served.has(socket);
      const dropped = (state.drop === 'pooled' && pooled) || (state.drop === 'fresh' && !pooled);
      state.seen.push({
        method: req.method ?? '',
        body: Buffer.concat(chunks).toString(),
        socket,
        dropped,
      });
      served.add(socket);
      if (dropped) {
        state.drop = 'none';
        socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return Object.assign(state, {
    http: server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
