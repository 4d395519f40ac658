import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { concatBytes } from '@/testing/bytes.ts';

import type { ExportColumn } from './cells.ts';
import { createXlsxEncoder, sheetName, xmlText } from './xlsx.ts';

const COLUMNS: ExportColumn[] = [
  { header: 'Title', kind: 'text' },
  { header: 'Amount', kind: 'number' },
  { header: 'Updated At', kind: 'datetime' },
];

interface Cell {
  /** Text, number (as its text) or empty. */
  value: string;
  type: 'inlineStr' | 'n' | 'empty';
  /** The style: 1 is the quote prefix, 2 bold. */
  style: string | null;
}

/** Writes a workbook and reads it back: its parts, and each sheet's cells row by row. */
function roundTrip(rows: (string | undefined)[][], pages = 1, maxSheetRows?: number) {
  const xlsx = createXlsxEncoder('Support: tickets', maxSheetRows ? { maxSheetRows } : {});
  const chunks = [...xlsx.start(COLUMNS)];
  const size = Math.ceil(rows.length / pages);
  for (let i = 0; i < rows.length; i += size) chunks.push(...xlsx.rows(rows.slice(i, i + size)));
  chunks.push(...xlsx.finish());
  const files = unzipSync(concatBytes(chunks));
  const xml = (path: string) => {
    const file = files[path];
    if (!file) throw new Error(`missing ${path}`);
    const doc = new DOMParser().parseFromString(strFromU8(file), 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    return doc;
  };
  const sheet = (n: number): Cell[][] =>
    Array.from(xml(`xl/worksheets/sheet${n}.xml`).getElementsByTagName('row'), (row) =>
      Array.from(row.getElementsByTagName('c'), (c) => ({
        value: c.textContent ?? '',
        type:
          c.getAttribute('t') === 'inlineStr'
            ? 'inlineStr'
            : c.getElementsByTagName('v').length > 0
              ? 'n'
              : 'empty',
        style: c.getAttribute('s'),
      })),
    );
  return { files, xml, sheet };
}

describe('createXlsxEncoder', () => {
  it('writes a workbook Excel opens: content types, relationships, styles, one sheet', () => {
    const { files, xml } = roundTrip([['a', '1', '']]);
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheets = xml('xl/workbook.xml').getElementsByTagName('sheet');
    expect(Array.from(sheets, (s) => s.getAttribute('name'))).toEqual(['Support tickets']);
    const xf = xml('xl/styles.xml').getElementsByTagName('cellXfs')[0]?.getElementsByTagName('xf');
    expect(xf?.[1]?.getAttribute('quotePrefix')).toBe('1');
  });

  it('reads back header, text, numbers and UTC dates', () => {
    const { sheet } = roundTrip([
      ['Printer jam', '-5', '2024-05-01T11:30:00+02:00'],
      ['a < b & "c"', '2.5', undefined],
    ]);
    expect(sheet(1)).toEqual([
      [
        { value: 'Title', type: 'inlineStr', style: '2' },
        { value: 'Amount', type: 'inlineStr', style: '2' },
        { value: 'Updated At (UTC)', type: 'inlineStr', style: '2' },
      ],
      [
        { value: 'Printer jam', type: 'inlineStr', style: null },
        { value: '-5', type: 'n', style: null },
        { value: '2024-05-01T09:30:00.000Z', type: 'inlineStr', style: null },
      ],
      [
        { value: 'a < b & "c"', type: 'inlineStr', style: null },
        { value: '2.5', type: 'n', style: null },
        { value: '', type: 'empty', style: null },
      ],
    ]);
  });

  it('keeps formula-like text as text with the quote prefix, never as a formula', () => {
    const { sheet, files } = roundTrip([
      ['=HYPERLINK("http://evil.example")', '-5+cmd', ''],
      ['@SUM(A1)', '+1', ''],
    ]);
    const rows = sheet(1).slice(1);
    expect(rows.map((row) => row.slice(0, 2))).toEqual([
      [
        { value: '=HYPERLINK("http://evil.example")', type: 'inlineStr', style: '1' },
        { value: '-5+cmd', type: 'inlineStr', style: '1' },
      ],
      [
        { value: '@SUM(A1)', type: 'inlineStr', style: '1' },
        { value: '+1', type: 'inlineStr', style: '1' },
      ],
    ]);
    expect(strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array())).not.toContain('<f>');
  });

  it('drops characters XML cannot carry rather than writing a broken file', () => {
    const { sheet } = roundTrip([['bell\u0007 and nul\u0000 end', '', '']]);
    expect(sheet(1)[1]?.[0]?.value).toBe('bell and nul end');
  });

  it('gives the same cells whether the rows come in one page or many', () => {
    const rows = Array.from({ length: 250 }, (_, i) => [`row ${i}`, String(i), '']);
    expect(roundTrip(rows, 1).sheet(1)).toEqual(roundTrip(rows, 7).sheet(1));
    expect(roundTrip(rows, 7).sheet(1)).toHaveLength(251);
  });

  it('goes on to a next sheet, header repeated, when a sheet is full', () => {
    const rows = Array.from({ length: 5 }, (_, i) => [`row ${i}`, String(i), '']);
    const { sheet, xml } = roundTrip(rows, 2, 3);
    expect(sheet(1).map((row) => row[0]?.value)).toEqual(['Title', 'row 0', 'row 1']);
    expect(sheet(2).map((row) => row[0]?.value)).toEqual(['Title', 'row 2', 'row 3']);
    expect(sheet(3).map((row) => row[0]?.value)).toEqual(['Title', 'row 4']);
    const names = xml('xl/workbook.xml').getElementsByTagName('sheet');
    expect(Array.from(names, (s) => s.getAttribute('name'))).toEqual([
      'Support tickets',
      'Support tickets (2)',
      'Support tickets (3)',
    ]);
  });
});

describe('xmlText and sheetName', () => {
  it('escapes markup and cuts at 32,767 characters', () => {
    expect(xmlText('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    expect(xmlText('x'.repeat(40_000))).toHaveLength(32_767);
  });
  it('names sheets within Excel rules', () => {
    expect(sheetName('a/b*c?[d]:e\\f', 1)).toBe('abcdef');
    expect(sheetName('x'.repeat(40), 12)).toBe(`${'x'.repeat(26)} (12)`);
    expect(sheetName('   ', 1)).toBe('Export');
  });
});
