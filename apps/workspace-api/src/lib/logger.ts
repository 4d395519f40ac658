// The API logs through the shared logger (packages/logger): pino, the same field names as the
// BFF (`msg`, `requestId`, `durationMs`, ...), pretty in a terminal and JSON lines otherwise.
export { createLogger } from '@wsc/logger';
