// What every benchmark script exports, and what run-all gives it.
import type { Section } from './report.ts';

export type BenchContext = {
  /** The exact command line of this run (written into the report). */
  command: string;
  log: (message: string) => void;
  /** `--name value` / `--name=value` flags of the command line (e.g. `--duration 60`). */
  options: Record<string, string>;
};

export type Bench = {
  /** The name for `pnpm bench -- <id>`, also the report section's marker id. */
  id: string;
  title: string;
  run: (ctx: BenchContext) => Promise<Section>;
};

/**
 * Splits a command line into bench names and `--name value` / `--name=value` flags. A flag
 * without a value (followed by another flag or nothing) is `'true'`.
 *
 * @example
 * parseArgs(['--', 'soak', '--duration', '60']); // { names: ['soak'], options: { duration: '60' } }
 */
export function parseArgs(argv: readonly string[]): {
  names: string[];
  options: Record<string, string>;
} {
  const names: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') continue;
    if (!arg.startsWith('--')) {
      names.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq !== -1) {
      options[arg.slice(2, eq)] = arg.slice(eq + 1);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      options[arg.slice(2)] = next;
      i += 1;
    } else options[arg.slice(2)] = 'true';
  }
  return { names, options };
}

/**
 * A numeric flag (`--duration 60`), or `fallback` when absent; throws on a value that is not a
 * finite number within [min, max], so a typo does not silently run the default.
 *
 * @example
 * const seconds = numberOption(ctx.options, 'duration', 300, 1, 3600);
 */
export function numberOption(
  options: Record<string, string>,
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max)
    throw new Error(`--${name} must be a number in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  return value;
}
