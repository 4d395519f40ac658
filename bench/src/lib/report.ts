// Writes benchmark results into docs/benchmarks.md. Each benchmark owns one section between
// `<!-- bench:<id>:start -->` and `<!-- bench:<id>:end -->` markers and rewrites only that section,
// so benchmarks can run one at a time and text outside the markers (analysis) is kept.
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';

/** The machine a figure was measured on (the same figures mean little without it). */
export type MachineInfo = {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1/5/15-minute load averages: the machine is shared, so a busy moment shows here. */
  loadAverage: [number, number, number];
};

/** One measured figure, with its budget when the design sets one. */
export type Figure = {
  name: string;
  value: string;
  budget?: string;
  /** true pass, false miss, undefined: informational (no budget). */
  pass?: boolean;
};

export type Table = { headers: string[]; rows: string[][] };

export type Section = {
  /** Marker id: lowercase letters, digits and dashes. */
  id: string;
  title: string;
  /** The exact command that produced the section. */
  command: string;
  date: Date;
  machine: MachineInfo;
  figures: Figure[];
  tables?: Array<{ title: string } & Table>;
  /** Free text: method, causes of misses, what remains. */
  notes?: string[];
};

/**
 * The current machine, read from Node's os module.
 *
 * @example
 * const machine = machineInfo(); // { cpus: 2, cpuModel: 'AMD EPYC ...', ... }
 */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: [one, five, fifteen].map((value) => Math.round(value * 100) / 100) as [
      number,
      number,
      number,
    ],
  };
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * A Markdown table.
 *
 * @example
 * markdownTable({ headers: ['a', 'b'], rows: [['1', '2']] }); // '| a | b |\n|---|---|\n| 1 | 2 |'
 */
export function markdownTable(table: Table): string {
  const lines = [
    `| ${table.headers.map(cell).join(' | ')} |`,
    `|${table.headers.map(() => '---').join('|')}|`,
    ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

const verdict = (figure: Figure) =>
  figure.pass === undefined ? '' : figure.pass ? 'pass' : '**miss**';

/**
 * The Markdown of one section, markers included.
 *
 * @example
 * renderSection({ id: 'api-memory', title: 'API memory', command: 'pnpm bench -- api-memory', date: new Date(), machine: machineInfo(), figures: [] });
 */
export function renderSection(section: Section): string {
  if (!/^[a-z0-9-]+$/.test(section.id)) throw new Error(`Invalid section id: ${section.id}`);
  const m = section.machine;
  const lines = [
    `<!-- bench:${section.id}:start -->`,
    `## ${section.title}`,
    '',
    `- Command: \`${section.command}\``,
    `- Date: ${section.date.toISOString()}`,
    `- Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB RAM, ${m.platform}, Node ${m.node}; load average ${m.loadAverage.join(' / ')} (1/5/15 min, at the end of the run)`,
    '',
    markdownTable({
      headers: ['figure', 'value', 'budget', 'result'],
      rows: section.figures.map((figure) => [
        figure.name,
        figure.value,
        figure.budget ?? '',
        verdict(figure),
      ]),
    }),
  ];
  for (const table of section.tables ?? [])
    lines.push('', `**${table.title}**`, '', markdownTable(table));
  if (section.notes && section.notes.length > 0)
    lines.push('', ...section.notes.map((note) => `- ${note}`));
  lines.push(`<!-- bench:${section.id}:end -->`);
  return lines.join('\n');
}

/**
 * Replaces the section with the same id in a document, or appends it. Text outside the markers
 * is kept byte for byte.
 *
 * @example
 * const next = upsertSection(doc, 'api-memory', renderSection(section));
 */
export function upsertSection(doc: string, id: string, rendered: string): string {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from !== -1 && to > from) return doc.slice(0, from) + rendered + doc.slice(to + end.length);
  if (from !== -1 || to !== -1) throw new Error(`Unbalanced markers for section ${id}`);
  const trimmed = doc.replace(/\s*$/, '');
  return `${trimmed}${trimmed === '' ? '' : '\n\n'}${rendered}\n`;
}

/**
 * Writes a section into a Markdown file (created when missing) and returns the rendered text.
 *
 * @example
 * await writeSection('docs/benchmarks.md', section);
 */
export async function writeSection(file: string, section: Section): Promise<string> {
  const rendered = renderSection(section);
  let doc = '';
  try {
    doc = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    doc = '# Benchmarks\n';
  }
  await writeFile(file, upsertSection(doc, section.id, rendered));
  return rendered;
}
