// No import cycles in the app (type-only imports count too: a cycle of types is still two modules
// that cannot be understood, moved or tested apart).
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { expect, it } from 'vitest';

it('has no import cycles in src/', async () => {
  const src = fileURLToPath(new URL('.', import.meta.url));
  const { output } = await cruise([src], {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    validate: true,
    ruleSet: { forbidden: [{ name: 'no-circular', from: {}, to: { circular: true } }] },
  });
  if (typeof output === 'string') throw new Error('dependency-cruiser returned text');
  const cycles = output.summary.violations.map((violation) =>
    [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> '),
  );
  expect(output.summary.totalCruised).toBeGreaterThan(50);
  expect(cycles).toEqual([]);
});
