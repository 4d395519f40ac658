// Serves one region: `pnpm --filter workspace-api start`. Builds nothing itself (see app.ts).
import { serve } from '@hono/node-server';

import { buildApp, initDeps } from './app.ts';
import { loadConfig } from './env.ts';
import { prepareStore } from './seed/seed.ts';

const config = loadConfig();
const { deps, close } = await initDeps(config);
await prepareStore(deps);
const app = buildApp(deps);

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  deps.logger.info('listening', {
    url: `http://${config.host}:${info.port}`,
    region: config.region,
    database: deps.dbKind,
  });
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.logger.info('shutting down', { signal });
  // Stop accepting, let in-flight requests finish (bounded), then close the database.
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  server.close(async () => {
    await close();
    process.exit(0);
  });
  if ('closeIdleConnections' in server) server.closeIdleConnections();
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
