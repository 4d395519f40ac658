// The API's Prometheus metrics (packages/metrics): requests by route and status, Node's process
// metrics (event-loop lag among them), and uploads in flight. Served on METRICS_PORT (src/index.ts).
import { createMetrics, Gauge } from '@wsc/metrics';

import type { UploadGate } from '../attachments/uploads.ts';

export type ApiMetrics = ReturnType<typeof createApiMetrics>;

/**
 * The registry of one API process.
 *
 * @example
 * const metrics = createApiMetrics(uploads);
 * app.use(metrics.middleware());
 */
export function createApiMetrics(uploads: UploadGate) {
  const metrics = createMetrics('wsc_api');
  new Gauge({
    name: 'wsc_api_uploads_in_flight',
    help: 'Uploads being received, all credentials together',
    registers: [metrics.registry],
    collect() {
      this.set(uploads.total);
    },
  });
  new Gauge({
    name: 'wsc_api_upload_reserved_bytes',
    help: 'Bytes of the blob volume promised to uploads in flight (the free-space check)',
    registers: [metrics.registry],
    collect() {
      this.set(uploads.reservedBytes);
    },
  });
  return metrics;
}
