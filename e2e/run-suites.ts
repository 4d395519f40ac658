// `pnpm --filter e2e test`: the suite once per profile, then the smoke against `prism mock -d`,
// each its own `playwright test` process with its own stack:
//   extended  our workspace API with its extensions (E2E_PROFILE=extended)
//   hosted    the API in its hosted profile behind Prism's validating proxy (E2E_PROFILE=hosted);
//             the run fails on any request or reply outside the published contract
//   smoke     the console against Prism's mock (random replies), repeated E2E_SMOKE_REPEAT times
// Every run goes ahead whatever the previous one did; the exit code is non-zero if any failed.
//
//   tsx run-suites.ts                       # all three
//   tsx run-suites.ts hosted -- --grep 412  # one, with arguments for playwright
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLAYWRIGHT = path.join(HERE, 'node_modules/.bin/playwright');
const SUITES = ['extended', 'hosted', 'smoke'] as const;
type Suite = (typeof SUITES)[number];

const isSuite = (value: string): value is Suite => (SUITES as readonly string[]).includes(value);

function parseArgs(argv: string[]): { suites: Suite[]; extra: string[] } {
  const split = argv.indexOf('--');
  const names = split === -1 ? argv : argv.slice(0, split);
  const extra = split === -1 ? [] : argv.slice(split + 1);
  const unknown = names.filter((name) => !isSuite(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown suite ${unknown.join(', ')}: use ${SUITES.join(', ')}`);
  }
  return { suites: names.length > 0 ? names.filter(isSuite) : [...SUITES], extra };
}

function run(suite: Suite, extra: string[]): Promise<number> {
  // The smoke's data is random: several repetitions see more of what the contract allows.
  const repeat = process.env.E2E_SMOKE_REPEAT ?? '3';
  const args =
    suite === 'smoke'
      ? ['test', '--config', 'playwright.smoke.config.ts', `--repeat-each=${repeat}`, ...extra]
      : ['test', ...extra];
  const env = { ...process.env, E2E_PROFILE: suite === 'smoke' ? 'hosted' : suite };
  return new Promise((resolve) => {
    const child = spawn(PLAYWRIGHT, args, { cwd: HERE, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

const { suites, extra } = parseArgs(process.argv.slice(2));
const results: string[] = [];
let failed = 0;
for (const suite of suites) {
  console.log(`\n── e2e: ${suite} ${'─'.repeat(60)}`);
  const started = Date.now();
  const code = await run(suite, extra);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (code !== 0) failed += 1;
  results.push(`${code === 0 ? 'ok  ' : 'FAIL'}  ${suite} (${seconds} s)`);
}
console.log(`\n── e2e summary\n${results.map((line) => `  ${line}`).join('\n')}`);
process.exitCode = failed === 0 ? 0 : 1;
