// The BFF logs through the shared logger (packages/logger): pino, the same field names as the
// workspace API, pretty in a terminal and JSON lines otherwise, secrets redacted.
export { createLogger } from '@wsc/logger';
export type { LogFields, Logger, LogLevel } from '@wsc/logger';
