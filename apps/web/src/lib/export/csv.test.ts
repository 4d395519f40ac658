import { describe, expect, it } from 'vitest';

import { concatBytes } from '@/testing/bytes.ts';
import { parseCsv } from '@/testing/parse-csv.ts';

import type { ExportColumn } from './cells.ts';
import { prepareCell } from './cells.ts';
import { createCsvEncoder, csvField } from './csv.ts';

const COLUMNS: ExportColumn[] = [
  { header: 'Title', kind: 'text' },
  { header: 'Amount', kind: 'number' },
  { header: 'Due Date', kind: 'date' },
  { header: 'Updated At', kind: 'datetime' },
];

function encode(rows: (string | undefined)[][], columns = COLUMNS): string {
  const csv = createCsvEncoder();
  const chunks = [...csv.start(columns), ...csv.rows(rows), ...csv.finish()];
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(concatBytes(chunks));
}

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField({ type: 'text', value: 'a, "b"', formulaLike: false })).toBe('"a, ""b"""');
    expect(csvField({ type: 'text', value: 'two\nlines', formulaLike: false })).toBe(
      '"two\nlines"',
    );
    expect(csvField({ type: 'text', value: 'plain', formulaLike: false })).toBe('plain');
  });
  it('prefixes formula-like text with an apostrophe, then quotes as needed', () => {
    expect(csvField({ type: 'text', value: '=1+1', formulaLike: true })).toBe("'=1+1");
    expect(csvField({ type: 'text', value: '=A1,"x"', formulaLike: true })).toBe('"\'=A1,""x"""');
    expect(csvField({ type: 'text', value: '\rcmd', formulaLike: true })).toBe('"\'\rcmd"');
  });
  it('writes numbers as they are', () => {
    expect(csvField({ type: 'number', value: '-5' })).toBe('-5');
    expect(csvField({ type: 'empty' })).toBe('');
  });
});

describe('a list separator of `;` (German, French, ... spreadsheets: issue 26 L3)', () => {
  it('quotes text holding `;` or a tab and neutralizes each part that starts a formula', () => {
    const cell = (value: string) => csvField(prepareCell(value, 'text'));
    expect(cell("Acme;=cmd|' /C calc'!A0")).toBe(`"Acme;'=cmd|' /C calc'!A0"`);
    expect(cell('a;b')).toBe('"a;b"');
    expect(cell('a\tb')).toBe('"a\tb"');
    expect(cell('a\t@x')).toBe(`"a\t'@x"`);
  });

  it('leaves no cell a `;`-splitting reader would run, and parses back to the neutralized text', () => {
    const rows = [
      ["Acme;=cmd|' /C calc'!A0", '1', '', ''],
      ['x;;+1', '2', '', ''],
    ];
    const text = encode(rows);
    for (const line of text.split('\r\n').slice(1)) {
      for (const part of line.split(';')) expect(part).not.toMatch(/^"?[=+\-@]/);
    }
    expect(
      parseCsv(text.slice(1))
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(["Acme;'=cmd|' /C calc'!A0", "x;;'+1"]);
  });
});

describe('createCsvEncoder', () => {
  it('starts with a BOM and a header row marking dates as UTC, with CRLF line ends', () => {
    const text = encode([['Hello', '3', '2024-05-01T00:00:00.000Z', '2024-05-01T11:30:00+02:00']]);
    expect(text.startsWith('\uFEFFTitle,Amount,Due Date (UTC),Updated At (UTC)\r\n')).toBe(true);
    expect(text.endsWith('Hello,3,2024-05-01,2024-05-01T09:30:00.000Z\r\n')).toBe(true);
  });

  it('parses back to the values, with every formula-like text neutralized', () => {
    const rows = [
      ['=HYPERLINK("http://evil.example","click")', '-5', '', ''],
      ['+cmd|calc', '-5+cmd', undefined, undefined],
      ['@SUM(A1:A9)', '1e3', '', ''],
      ['-dash', '0', '', ''],
      ['\ttab', '2.5', '', ''],
      ['\rreturn', '7', '', ''],
      ['comma, "quote"\nnewline', '-0.25', '', ''],
      ['ünïcødé ✓', '', '', ''],
    ];
    const parsed = parseCsv(encode(rows).slice(1));
    expect(parsed[0]).toEqual(['Title', 'Amount', 'Due Date (UTC)', 'Updated At (UTC)']);
    expect(parsed.slice(1).map((row) => row.slice(0, 2))).toEqual([
      ['\'=HYPERLINK("http://evil.example","click")', '-5'],
      ["'+cmd|calc", "'-5+cmd"],
      ["'@SUM(A1:A9)", '1e3'],
      ["'-dash", '0'],
      ["'\ttab", '2.5'],
      ["'\rreturn", '7'],
      ['comma, "quote"\nnewline', '-0.25'],
      ['ünïcødé ✓', ''],
    ]);
  });

  it('neutralizes a header that looks like a formula', () => {
    const text = encode([], [{ header: '=cmd', kind: 'text' }]);
    expect(text).toBe("\uFEFF'=cmd\r\n");
  });

  it('writes nothing for an empty page', () => {
    const csv = createCsvEncoder();
    csv.start(COLUMNS);
    expect(csv.rows([])).toEqual([]);
  });
});
