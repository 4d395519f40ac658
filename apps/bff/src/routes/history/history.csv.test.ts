// One field of the history's CSV export (issue 26 L3): where the list separator is `;` (German,
// French, ... Excel), a `;` inside a value starts a new cell unless the field is quoted, and a part
// after it that looks like a formula would run. Every such part is neutralized and the field quoted.
import { describe, expect, it } from 'vitest';

import { csvField } from './history.csv.ts';

/** What a spreadsheet that splits on `;` and ignores quoting would see as cells. */
const naiveCells = (line: string) => line.split(/[;,\t]/).map((cell) => cell.replace(/^"+/, ''));

describe('csvField', () => {
  it('quotes a value holding `;` or a tab and neutralizes each `;`-part that starts a formula', () => {
    expect(csvField("Acme;=cmd|' /C calc'!A0")).toBe(`"Acme;'=cmd|' /C calc'!A0"`);
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField('=1;+2;@x;-y')).toBe(`"'=1;'+2;'@x;'-y"`);
  });

  it('leaves nothing a `;`-splitting reader would run', () => {
    for (const value of [
      "Acme;=cmd|' /C calc'!A0",
      'x;;=1',
      'a\t=1',
      '"q";=HYPERLINK("http://evil")',
      ';@SUM(A1)',
    ]) {
      for (const cell of naiveCells(csvField(value))) expect(cell, value).not.toMatch(/^[=+\-@]/);
    }
  });

  it('keeps the rules it had: formula start neutralized, RFC 4180 quoting, plain text as is', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('Printer jam')).toBe('Printer jam');
    expect(csvField(3)).toBe('3');
    expect(csvField(null)).toBe('');
  });
});
