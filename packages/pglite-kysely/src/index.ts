export { PGliteDialect } from './dialect.ts';
export { initPgliteDir, pgliteStartParams } from './data-dir.ts';
