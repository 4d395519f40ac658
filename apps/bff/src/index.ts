// Serves the BFF: validate env (fail fast), open the store, listen, sweep expired sessions, and
// shut down cleanly on SIGINT/SIGTERM.
import { startMetricsServer } from '@wsc/metrics';

import { createApp } from './app.ts';
import { openStore } from './db/store.ts';
import { EnvError, readEnv } from './env.ts';
import { systemClock } from './lib/clock.ts';
import { ConfigFileError } from './lib/config-file.ts';
import { configFromEnv } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';
import { createBffMetrics } from './lib/metrics.ts';
import { startServer } from './lib/server.ts';

const SWEEP_INTERVAL_MS = 10 * 60_000;

function loadEnv() {
  try {
    return readEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(
        `bff: invalid configuration:\n${error.problems.map((p) => `  ${p.name}: ${p.message}`).join('\n')}\n`,
      );
      process.exit(1);
    }
    throw error;
  }
}

/** The config, reading the operator files the env names; a bad file stops the process (exit 1). */
function loadConfig(env: ReturnType<typeof readEnv>) {
  try {
    return configFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigFileError) {
      process.stderr.write(
        `bff: invalid ${error.variable} (${error.file}):\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`,
      );
      process.exit(1);
    }
    throw error;
  }
}

const env = loadEnv();
const config = loadConfig(env);
const logger = createLogger({ level: env.LOG_LEVEL });
const store = await openStore(
  env.BFF_DATABASE_URL
    ? { kind: 'postgres', url: env.BFF_DATABASE_URL }
    : {
        kind: 'pglite',
        dataDir: env.BFF_DATA_DIR,
        sharedBuffersMb: env.BFF_PGLITE_SHARED_BUFFERS_MB,
      },
);
const metrics = createBffMetrics({ store, clock: systemClock, regions: config.regions });
let closeLive: (() => Promise<void>) | undefined;
const app = createApp({
  config,
  store,
  logger,
  metrics,
  onLiveHub: (hub) => {
    closeLive = () => hub.close();
  },
});
// Prometheus text on a port of its own: never reachable through the public routes.
const metricsServer =
  env.BFF_METRICS_PORT === undefined
    ? undefined
    : await startMetricsServer(metrics.registry, {
        port: env.BFF_METRICS_PORT,
        host: env.BFF_METRICS_HOST,
      });
if (metricsServer) {
  logger.info('metrics listening', {
    url: `http://${env.BFF_METRICS_HOST}:${metricsServer.port}/metrics`,
  });
}

const sweep = setInterval(() => {
  const now = Date.now();
  store.sweep(now, now - config.idleTimeoutMs).catch((error: unknown) => {
    logger.warn('session sweep failed', {
      error: error instanceof Error ? error.message : String(error),
    });
  });
}, SWEEP_INTERVAL_MS);
sweep.unref();

const server = startServer(app.fetch, {
  port: env.PORT,
  hostname: env.HOST,
  limits: config.server,
  onListening: (info) => {
    logger.info('listening', {
      url: `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`,
      regions: config.regions.map((r) => `${r.id} (${r.profile})`),
      console: config.publicDir,
      store: env.BFF_DATABASE_URL ? 'postgres' : 'pglite',
      limits: config.server,
    });
  },
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info('stopping', { signal });
  clearInterval(sweep);
  metricsServer?.server.close();
  // Event streams would hold close() open: end them (their presence rows go with them).
  void closeLive?.();
  server.close(() => {
    store.close().finally(() => process.exit(0));
  });
  // Keep-alive connections would hold close() open; give in-flight requests a moment, then go.
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
