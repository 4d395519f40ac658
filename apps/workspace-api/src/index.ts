// Serves one region: `pnpm --filter workspace-api start`. Builds nothing itself (see app.ts).
import { startMetricsServer } from '@wsc/metrics';

import { buildApp, initDeps } from './app.ts';
import { loadConfig } from './env.ts';
import { prepareStore } from './seed/prepare-store.ts';
import { startServer } from './server.ts';

const config = loadConfig();
const { deps, close } = await initDeps(config);
await prepareStore(deps);
const app = buildApp(deps);
// Expired and revoked tokens: purged now and every TOKEN_PURGE_INTERVAL_SECONDS.
const stopPurge = deps.tokenPurger.start();

const { server, port } = await startServer(app.fetch, {
  port: config.port,
  host: config.host,
  limits: config.server,
  profile: config.profile,
  logger: deps.logger,
});
deps.logger.info('listening', {
  url: `http://${config.host}:${port}`,
  region: config.region,
  database: deps.dbKind,
});
// Prometheus text on a port of its own, never the public one.
const metricsServer = config.metrics
  ? await startMetricsServer(deps.metrics.registry, config.metrics)
  : undefined;
if (metricsServer && config.metrics) {
  deps.logger.info('metrics listening', {
    url: `http://${config.metrics.host}:${metricsServer.port}/metrics`,
  });
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.logger.info('shutting down', { signal });
  stopPurge();
  metricsServer?.server.close();
  // Stop accepting, let in-flight requests finish (bounded), then close the database.
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  server.close(async () => {
    await close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
