// `pnpm bench` runs every benchmark; `pnpm bench -- api-search upload` runs the named ones, and
// `--name value` flags go to them (`pnpm bench -- soak --duration 60`). Each prints its figures and
// rewrites its own section of docs/benchmarks.md.
import path from 'node:path';

import type { Bench } from './lib/bench.ts';
import { apiMemoryBench } from './api-memory.ts';
import { apiRequestCostBench } from './api-request-cost.ts';
import { apiSearchBench } from './api-search.ts';
import { bffOverheadBench } from './bff-overhead.ts';
import { consoleScaleBench } from './console-scale.ts';
import { consoleBench } from './console.ts';
import { exportMemoryBench } from './export-memory.ts';
import { faultsBench } from './faults.ts';
import { fuzzBench } from './fuzz.ts';
import { parseArgs } from './lib/bench.ts';
import { releaseDatasets } from './lib/datasets.ts';
import { ROOT } from './lib/processes.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { noisyNeighbourBench } from './noisy-neighbour.ts';
import { remoteBench } from './remote.ts';
import { sideBySideBench } from './side-by-side.ts';
import { soakBench } from './soak.ts';
import { sseIdleBench } from './sse-idle.ts';
import { tokenCallsBench } from './token-calls.ts';
import { uploadBench } from './upload.ts';

export const BENCHES: Bench[] = [
  apiSearchBench,
  apiMemoryBench,
  apiRequestCostBench,
  bffOverheadBench,
  uploadBench,
  tokenCallsBench,
  consoleBench,
  consoleScaleBench,
  sideBySideBench,
  soakBench,
  faultsBench,
  fuzzBench,
  exportMemoryBench,
  sseIdleBench,
  remoteBench,
  noisyNeighbourBench,
];

const DOC = path.join(ROOT, 'docs/benchmarks.md');

async function main() {
  const { names, options } = parseArgs(process.argv.slice(2));
  const unknown = names.filter((name) => !BENCHES.some((bench) => bench.id === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${BENCHES.map((bench) => bench.id).join(', ')}`,
    );
    process.exit(2);
  }
  const selected =
    names.length === 0 ? BENCHES : BENCHES.filter((bench) => names.includes(bench.id));
  const args = [
    ...names,
    ...Object.entries(options).map(([key, value]) => `--${key} ${value}`),
  ].join(' ');
  const command = `pnpm bench${args ? ` -- ${args}` : ''}`;
  const started = performance.now();
  const failures: string[] = [];
  const log = (message: string) =>
    console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${message}`);
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    void releaseDatasets().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (const bench of selected) {
      log(`${bench.id}: ${bench.title}`);
      const benchStarted = performance.now();
      try {
        const section = await bench.run({ command, log, options });
        await writeSection(DOC, section);
        console.log(
          `\n${section.title}\n${markdownTable({
            headers: ['figure', 'value', 'budget', 'result'],
            rows: section.figures.map((f) => [
              f.name,
              f.value,
              f.budget ?? '',
              f.pass === undefined ? '' : f.pass ? 'pass' : 'MISS',
            ]),
          })}\n`,
        );
        log(`${bench.id} done in ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
      } catch (error) {
        failures.push(bench.id);
        console.error(`[bench] ${bench.id} failed:`, error);
      }
    }
  } finally {
    await releaseDatasets();
  }
  log(
    `finished ${selected.length - failures.length}/${selected.length} benchmarks in ${((performance.now() - started) / 1000).toFixed(0)} s; results in docs/benchmarks.md`,
  );
  if (failures.length > 0) {
    console.error(`failed: ${failures.join(', ')}`);
    process.exit(1);
  }
}

await main();
