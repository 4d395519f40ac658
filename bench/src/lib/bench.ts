// What every benchmark script exports, and what run-all gives it.
import type { Section } from './report.ts';

export type BenchContext = {
  /** The exact command line of this run (written into the report). */
  command: string;
  log: (message: string) => void;
};

export type Bench = {
  /** The name for `pnpm bench -- <id>`, also the report section's marker id. */
  id: string;
  title: string;
  run: (ctx: BenchContext) => Promise<Section>;
};
