import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import type { Section } from './report.ts';
import {
  machineInfo,
  markdownTable,
  renderSection,
  upsertSection,
  writeSection,
} from './report.ts';

const machine = {
  cpus: 2,
  cpuModel: 'Test CPU',
  memoryGiB: 8,
  node: 'v20.0.0',
  platform: 'linux 6',
  loadAverage: [1, 2, 3] as [number, number, number],
};

function section(overrides: Partial<Section> = {}): Section {
  return {
    id: 'api-memory',
    title: 'API memory',
    command: 'pnpm bench -- api-memory',
    date: new Date('2025-01-02T03:04:05.000Z'),
    machine,
    figures: [
      { name: 'peak RSS', value: '200.0 MiB', budget: '<= 400 MB', pass: true },
      { name: 'p99', value: '9 ms', budget: '<= 5 ms', pass: false },
      { name: 'info only', value: '1' },
    ],
    ...overrides,
  };
}

describe('renderSection', () => {
  it('writes markers, command, date, machine and a figure table with verdicts', () => {
    const text = renderSection(section({ notes: ['Cause: the count.'] }));
    expect(text.startsWith('<!-- bench:api-memory:start -->\n## API memory')).toBe(true);
    expect(text.endsWith('<!-- bench:api-memory:end -->')).toBe(true);
    expect(text).toContain('- Command: `pnpm bench -- api-memory`');
    expect(text).toContain('- Date: 2025-01-02T03:04:05.000Z');
    expect(text).toContain('2 CPUs (Test CPU), 8 GiB RAM');
    expect(text).toContain('load average 1 / 2 / 3');
    expect(text).toContain('| peak RSS | 200.0 MiB | <= 400 MB | pass |');
    expect(text).toContain('| p99 | 9 ms | <= 5 ms | **miss** |');
    expect(text).toContain('| info only | 1 |  |  |');
    expect(text).toContain('- Cause: the count.');
  });

  it('rejects ids that would break the markers', () => {
    expect(() => renderSection(section({ id: 'Bad id' }))).toThrow(/Invalid section id/);
  });
});

describe('markdownTable', () => {
  it('escapes pipes and newlines inside cells', () => {
    expect(markdownTable({ headers: ['a'], rows: [['x|y\nz']] })).toBe('| a |\n|---|\n| x\\|y z |');
  });
});

describe('upsertSection', () => {
  const one = '<!-- bench:a:start -->\nold\n<!-- bench:a:end -->';

  it('appends a new section after the existing text', () => {
    expect(upsertSection('# Benchmarks\n', 'a', one)).toBe(`# Benchmarks\n\n${one}\n`);
    expect(upsertSection('', 'a', one)).toBe(`${one}\n`);
  });

  it('replaces only its own section and keeps the text around it', () => {
    const doc = `# B\n\nintro\n\n${one}\n\n<!-- bench:b:start -->\nb\n<!-- bench:b:end -->\n\nanalysis\n`;
    const replaced = upsertSection(doc, 'a', '<!-- bench:a:start -->\nnew\n<!-- bench:a:end -->');
    expect(replaced).toBe(doc.replace('old', 'new'));
    // Idempotent: the same content twice gives the same document.
    expect(upsertSection(replaced, 'a', '<!-- bench:a:start -->\nnew\n<!-- bench:a:end -->')).toBe(
      replaced,
    );
  });

  it('refuses a document with half a section', () => {
    expect(() => upsertSection('<!-- bench:a:start -->\n', 'a', one)).toThrow(/Unbalanced/);
  });
});

describe('writeSection', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates the file with a title, then rewrites the section in place', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bench-report-'));
    const file = path.join(dir, 'benchmarks.md');
    await writeSection(file, section());
    const first = await readFile(file, 'utf8');
    expect(first.startsWith('# Benchmarks\n\n<!-- bench:api-memory:start -->')).toBe(true);
    await writeFile(file, `${first}\nHand-written analysis.\n`);
    await writeSection(file, section({ figures: [{ name: 'peak RSS', value: '300.0 MiB' }] }));
    const second = await readFile(file, 'utf8');
    expect(second).toContain('| peak RSS | 300.0 MiB |  |  |');
    expect(second).not.toContain('200.0 MiB');
    expect(second).toContain('Hand-written analysis.');
    expect(second.match(/bench:api-memory:start/g)).toHaveLength(1);
  });
});

describe('machineInfo', () => {
  it('describes this machine', () => {
    const info = machineInfo();
    expect(info.cpus).toBeGreaterThan(0);
    expect(info.node).toBe(process.version);
    expect(info.loadAverage).toHaveLength(3);
  });
});
