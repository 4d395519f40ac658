export { PGliteDialect } from './dialect.ts';
export { initPgliteDir, pgliteStartParams } from './data-dir.ts';
export { listenPglite, listenPostgres } from './listen.ts';
export type { ListenHandlers, StopListening } from './listen.ts';
