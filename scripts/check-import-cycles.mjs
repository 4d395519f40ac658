// No import cycles in any app or package (type-only imports count too: a cycle of types is still two
// modules that cannot be understood, moved or tested apart). Run by `npm run lint` and `npm test`.
// It first proves it can see a cycle (scripts/fixtures/import-cycle), then checks every source folder;
// a folder with suspiciously few modules fails too, so a broken resolver cannot pass it vacuously.
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Source folders and the fewest modules each must have (about half of today's count). */
const FOLDERS = {
  'apps/workspace-api/src': 80,
  'apps/bff/src': 50,
  'apps/web/src': 150,
  'packages/api-client/src': 25,
  'packages/rsql/src': 8,
  'packages/logger/src': 4,
  'packages/metrics/src': 4,
  'packages/pglite-kysely/src': 6,
  bench: 25,
  e2e: 25,
};

async function cycles(folder) {
  const { output } = await cruise([folder], {
    baseDir: root,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: ['node_modules', '\\.gen\\.ts$', 'dist/', 'playwright-report/', 'test-results/'],
    },
    validate: true,
    ruleSet: { forbidden: [{ name: 'no-circular', from: {}, to: { circular: true } }] },
  });
  if (typeof output === 'string') throw new Error('dependency-cruiser returned text');
  return {
    modules: output.summary.totalCruised,
    found: output.summary.violations.map((violation) =>
      [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> '),
    ),
  };
}

let failed = false;
const known = await cycles('scripts/fixtures/import-cycle');
if (known.found.length === 0) {
  console.error('import cycles: the known cycle in scripts/fixtures/import-cycle was not found');
  failed = true;
}
for (const [folder, fewest] of Object.entries(FOLDERS)) {
  const { modules, found } = await cycles(folder);
  if (modules < fewest) {
    console.error(`import cycles: only ${modules} modules read in ${folder} (expected ${fewest}+)`);
    failed = true;
  }
  for (const cycle of found) console.error(`import cycle: ${cycle}`);
  if (found.length > 0) failed = true;
}
if (failed) process.exit(1);
console.log(`import cycles: none in ${Object.keys(FOLDERS).length} folders`);
