import { describe, expect, it } from 'vitest';

import {
  columnKindOf,
  headerText,
  isoUtc,
  isPlainNumber,
  looksLikeFormula,
  prepareCell,
} from './cells.ts';

describe('looksLikeFormula', () => {
  it.each([
    '=1+1',
    '+1',
    '-1',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '=HYPERLINK("http://x")',
    // A part after `;` or a tab: a cell of its own where that is the list separator.
    "Acme;=cmd|' /C calc'!A0",
    'a\t+1',
  ])('flags %j', (text) => expect(looksLikeFormula(text)).toBe(true));
  it.each(['Printer jam', ' =1', "'=1", '1-2', 'a=b', ''])('leaves %j', (text) =>
    expect(looksLikeFormula(text)).toBe(false),
  );
});

describe('isPlainNumber', () => {
  it.each(['0', '-5', '3.25', '-0.5', '1e5', '12345678901234'])('accepts %j', (text) =>
    expect(isPlainNumber(text)).toBe(true),
  );
  it.each(['-5+cmd', '--5', '+5', ' 5', '5 ', '0x1F', '1,000', 'NaN', 'Infinity', '', '01'])(
    'refuses %j',
    (text) => expect(isPlainNumber(text)).toBe(false),
  );
});

describe('isoUtc', () => {
  it('converts a date-time with an offset to UTC', () => {
    expect(isoUtc('2024-05-01T11:30:00+02:00', 'datetime')).toBe('2024-05-01T09:30:00.000Z');
    expect(isoUtc('2024-05-01T09:30:00Z', 'datetime')).toBe('2024-05-01T09:30:00.000Z');
  });
  it('keeps the calendar day of a date', () => {
    expect(isoUtc('2024-05-01T00:00:00.000Z', 'date')).toBe('2024-05-01');
    expect(isoUtc('2024-05-01', 'date')).toBe('2024-05-01');
  });
  it('leaves what is not a date alone', () => {
    expect(isoUtc('soon', 'datetime')).toBe('soon');
    expect(isoUtc('12345', 'datetime')).toBe('12345');
    expect(isoUtc('-1', 'date')).toBe('-1');
  });
});

describe('prepareCell', () => {
  it('keeps a real number in a number column, negatives included', () => {
    expect(prepareCell('-5', 'number')).toEqual({ type: 'number', value: '-5' });
  });
  it('neutralizes the same text in a text column, and non-numbers in a number column', () => {
    expect(prepareCell('-5', 'text')).toEqual({ type: 'text', value: '-5', formulaLike: true });
    expect(prepareCell('-5+cmd|calc', 'number')).toEqual({
      type: 'text',
      value: '-5+cmd|calc',
      formulaLike: true,
    });
  });
  it('writes dates in UTC and empty values as empty', () => {
    expect(prepareCell('2024-05-01T11:30:00+02:00', 'datetime')).toEqual({
      type: 'text',
      value: '2024-05-01T09:30:00.000Z',
      formulaLike: false,
    });
    expect(prepareCell('', 'text')).toEqual({ type: 'empty' });
    expect(prepareCell(undefined, 'number')).toEqual({ type: 'empty' });
  });
});

describe('headers and kinds', () => {
  it('marks date columns as UTC', () => {
    expect(headerText({ header: 'Due Date', kind: 'date' })).toBe('Due Date (UTC)');
    expect(headerText({ header: 'Title', kind: 'text' })).toBe('Title');
  });
  it('maps field types', () => {
    expect(columnKindOf('NUMBER')).toBe('number');
    expect(columnKindOf('DECIMAL')).toBe('number');
    expect(columnKindOf('DATE')).toBe('date');
    expect(columnKindOf('DATETIME')).toBe('datetime');
    expect(columnKindOf('PICKLIST')).toBe('text');
    expect(columnKindOf(undefined)).toBe('text');
  });
});
