// Liveness and readiness probes.
import type { SessionStore } from '../../db/store.ts';
import type { BffConfig } from '../../lib/config.ts';
import { createRouter } from '../../lib/create-app.ts';

const PROBE_TIMEOUT_MS = 2_000;

/**
 * `/bff/health` (the process answers) and `/bff/ready` (store and every region's API reachable).
 *
 * @example
 * app.route('/bff', createHealthRouter({ config, store, fetch }));
 */
export function createHealthRouter(deps: {
  config: BffConfig;
  store: SessionStore;
  fetch: typeof fetch;
}) {
  const router = createRouter();

  router.get('/health', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }));

  router.get('/ready', async (c) => {
    const checks: Record<string, 'ok' | 'fail'> = {};
    await Promise.all([
      deps.store.ping().then(
        () => (checks.store = 'ok'),
        () => (checks.store = 'fail'),
      ),
      ...deps.config.regions.map(async (region) => {
        try {
          // Any HTTP answer from the token URL proves the API is up; its status does not matter.
          const res = await deps.fetch(region.tokenUrl, {
            method: 'GET',
            signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          });
          await res.body?.cancel();
          checks[`upstream:${region.id}`] = res.status < 500 ? 'ok' : 'fail';
        } catch {
          checks[`upstream:${region.id}`] = 'fail';
        }
      }),
    ]);
    const ready = Object.values(checks).every((v) => v === 'ok');
    return c.json({ status: ready ? 'ready' : 'not_ready', checks }, ready ? 200 : 503, {
      'cache-control': 'no-store',
    });
  });

  return router;
}
