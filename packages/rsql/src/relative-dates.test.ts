import { describe, expect, it } from 'vitest';

import type { RelativeClock, RelativeDate } from './relative-dates.ts';
import { isRsqlError } from './errors.ts';
import { parse } from './parser.ts';
import {
  checkRelativeDates,
  describeRelativeDate,
  formatRelativeDate,
  isRelativeDateText,
  parseRelativeDate,
  resolveRelativeDate,
  resolveRelativeDates,
} from './relative-dates.ts';
import { serialize, stripSpans } from './serialize.ts';

function errorOf(fn: () => unknown): { code: string; position: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (isRsqlError(error)) return error;
    throw error;
  }
  throw new Error('expected an RsqlError');
}

const at = (iso: string, timeZone = 'UTC'): RelativeClock => ({ now: new Date(iso), timeZone });

function range(text: string, clock: RelativeClock) {
  const r = resolveRelativeDate(parseRelativeDate(text), clock);
  return {
    firstDay: r.firstDay,
    lastDay: r.lastDay,
    start: r.start.toISOString(),
    end: r.end.toISOString(),
  };
}

describe('parseRelativeDate', () => {
  it.each<[string, RelativeDate]>([
    ['{now}', { base: 'now', amount: 0, unit: 'd' }],
    ['{now-2h}', { base: 'now', amount: -2, unit: 'h' }],
    ['{now+3w}', { base: 'now', amount: 3, unit: 'w' }],
    ['{today}', { base: 'today', amount: 0, unit: 'd' }],
    ['{today-7d}', { base: 'today', amount: -7, unit: 'd' }],
    ['{today+1w}', { base: 'today', amount: 1, unit: 'w' }],
    ['{yesterday}', { base: 'yesterday' }],
    ['{tomorrow}', { base: 'tomorrow' }],
    ['{thisWeek}', { base: 'thisWeek' }],
    ['{lastMonth}', { base: 'lastMonth' }],
    ['{last7d}', { base: 'last', days: 7 }],
    ['{next9999d}', { base: 'next', days: 9999 }],
  ])('reads %s and writes it back', (text, expected) => {
    expect(parseRelativeDate(text)).toEqual(expected);
    expect(formatRelativeDate(expected)).toBe(text);
  });

  it.each<[string, number, RegExp]>([
    ['{lastt7d}', 1, /Unknown relative date 'lastt'/],
    ['{Today}', 1, /Unknown relative date 'Today'/],
    ['{}', 1, /Unknown relative date ''/],
    ['{today-3x}', 8, /Expected a unit \('d', 'w'\)/],
    ['{today+3h}', 8, /Expected a unit/],
    ['{today-}', 7, /Expected a number/],
    ['{last0d}', 5, /at least 1/],
    ['{last7}', 6, /Expected a unit \('d'\)/],
    ['{last12345d}', 9, /At most 4 digits/],
    ['{today', 6, /Expected '}' but the value ended/],
    ['{today d}', 6, /Expected '}'/],
    ['{today}x', 7, /Unexpected text after '}'/],
  ])('rejects %s at position %i', (text, position, message) => {
    const error = errorOf(() => parseRelativeDate(text));
    expect(error.code).toBe('INVALID_RELATIVE_DATE');
    expect(error.position).toBe(position);
    expect(error.message).toMatch(message);
  });

  it('tells relative text from other values', () => {
    expect(isRelativeDateText('{today}')).toBe(true);
    expect(isRelativeDateText('2026-01-01')).toBe(false);
    expect(isRelativeDateText(null)).toBe(false);
  });

  it('describes relative dates in words', () => {
    expect(describeRelativeDate(parseRelativeDate('{last7d}'))).toBe('last 7 days');
    expect(describeRelativeDate(parseRelativeDate('{next1d}'))).toBe('next 1 day');
    expect(describeRelativeDate(parseRelativeDate('{today-3d}'))).toBe('3 days ago');
    expect(describeRelativeDate(parseRelativeDate('{now-2h}'))).toBe('2 hours before now');
    expect(describeRelativeDate(parseRelativeDate('{thisWeek}'))).toBe('this week');
    expect(describeRelativeDate(parseRelativeDate('{today}'))).toBe('today');
    expect(describeRelativeDate(parseRelativeDate('{today+1w}'))).toBe('in 1 week');
    expect(describeRelativeDate(parseRelativeDate('{now+1d}'))).toBe('1 day after now');
  });
});

describe('resolveRelativeDate', () => {
  // Wednesday 11 March 2026, noon UTC.
  const wednesday = at('2026-03-11T12:00:00.000Z');

  it('resolves days, weeks (Monday to Sunday) and months in UTC', () => {
    expect(range('{today}', wednesday)).toEqual({
      firstDay: '2026-03-11',
      lastDay: '2026-03-11',
      start: '2026-03-11T00:00:00.000Z',
      end: '2026-03-12T00:00:00.000Z',
    });
    expect(range('{thisWeek}', wednesday)).toMatchObject({
      firstDay: '2026-03-09',
      lastDay: '2026-03-15',
    });
    expect(range('{lastWeek}', wednesday)).toMatchObject({
      firstDay: '2026-03-02',
      lastDay: '2026-03-08',
    });
    expect(range('{last7d}', wednesday)).toMatchObject({
      firstDay: '2026-03-05',
      lastDay: '2026-03-11',
    });
    expect(range('{next7d}', wednesday)).toMatchObject({
      firstDay: '2026-03-11',
      lastDay: '2026-03-17',
    });
    expect(range('{today-7d}', wednesday)).toMatchObject({
      firstDay: '2026-03-04',
      lastDay: '2026-03-04',
    });
    expect(range('{lastMonth}', wednesday)).toMatchObject({
      firstDay: '2026-02-01',
      lastDay: '2026-02-28',
    });
  });

  it('counts a Sunday in the week that ends with it', () => {
    expect(range('{thisWeek}', at('2026-03-15T23:00:00.000Z'))).toMatchObject({
      firstDay: '2026-03-09',
      lastDay: '2026-03-15',
    });
  });

  it('crosses month and year boundaries in the viewer’s zone', () => {
    // 03:00 UTC on New Year's Day is still 31 December in New York.
    const newYork = at('2026-01-01T03:00:00.000Z', 'America/New_York');
    expect(range('{today}', newYork)).toEqual({
      firstDay: '2025-12-31',
      lastDay: '2025-12-31',
      start: '2025-12-31T05:00:00.000Z',
      end: '2026-01-01T05:00:00.000Z',
    });
    expect(range('{tomorrow}', newYork)).toMatchObject({ firstDay: '2026-01-01' });
    expect(range('{thisMonth}', newYork)).toMatchObject({
      firstDay: '2025-12-01',
      lastDay: '2025-12-31',
    });
    expect(range('{nextMonth}', newYork)).toMatchObject({
      firstDay: '2026-01-01',
      lastDay: '2026-01-31',
    });
    expect(range('{thisWeek}', newYork)).toMatchObject({
      firstDay: '2025-12-29',
      lastDay: '2026-01-04',
    });
    expect(range('{last7d}', at('2026-01-03T12:00:00.000Z'))).toMatchObject({
      firstDay: '2025-12-28',
      lastDay: '2026-01-03',
    });
    // A zone ahead of UTC is already on the next day.
    expect(range('{today}', at('2026-03-10T20:00:00.000Z', 'Pacific/Auckland'))).toMatchObject({
      firstDay: '2026-03-11',
      start: '2026-03-10T11:00:00.000Z',
    });
  });

  it('knows leap years', () => {
    const leap = at('2028-03-15T12:00:00.000Z');
    expect(range('{lastMonth}', leap)).toMatchObject({
      firstDay: '2028-02-01',
      lastDay: '2028-02-29',
    });
    expect(range('{today-15d}', leap)).toMatchObject({ firstDay: '2028-02-29' });
  });

  it('makes days of 23 and 25 hours across daylight saving time', () => {
    // Berlin springs forward on 29 March 2026 and falls back on 25 October 2026.
    expect(range('{today}', at('2026-03-29T10:00:00.000Z', 'Europe/Berlin'))).toMatchObject({
      start: '2026-03-28T23:00:00.000Z',
      end: '2026-03-29T22:00:00.000Z',
    });
    expect(range('{today}', at('2026-10-25T10:00:00.000Z', 'Europe/Berlin'))).toMatchObject({
      start: '2026-10-24T22:00:00.000Z',
      end: '2026-10-25T23:00:00.000Z',
    });
    // A week across the change still runs from Monday midnight to the next Monday midnight.
    expect(range('{thisWeek}', at('2026-03-27T10:00:00.000Z', 'Europe/Berlin'))).toMatchObject({
      start: '2026-03-22T23:00:00.000Z',
      end: '2026-03-29T22:00:00.000Z',
    });
  });

  it('starts a day whose midnight does not exist where the gap ends', () => {
    // Santiago skipped from 00:00 to 01:00 on 8 September 2024 (-04 to -03).
    expect(range('{today}', at('2024-09-08T15:00:00.000Z', 'America/Santiago'))).toEqual({
      firstDay: '2024-09-08',
      lastDay: '2024-09-08',
      start: '2024-09-08T04:00:00.000Z',
      end: '2024-09-09T03:00:00.000Z',
    });
    expect(range('{yesterday}', at('2024-09-08T15:00:00.000Z', 'America/Santiago'))).toMatchObject({
      start: '2024-09-07T04:00:00.000Z',
      end: '2024-09-08T04:00:00.000Z',
    });
  });

  it('takes the earlier of two midnights when the clocks fall back over it', () => {
    // Santiago went from 00:00 back to 23:00 on 6 April 2024 (-03 to -04): the 6th starts at
    // the first 00:00 (-03) and lasts 25 hours.
    expect(range('{today}', at('2024-04-06T15:00:00.000Z', 'America/Santiago'))).toMatchObject({
      start: '2024-04-06T03:00:00.000Z',
      end: '2024-04-07T04:00:00.000Z',
    });
  });

  it('resolves now and its offsets to instants', () => {
    const r = resolveRelativeDate(parseRelativeDate('{now-2h}'), wednesday);
    expect(r.instant).toBe(true);
    expect(r.start.toISOString()).toBe('2026-03-11T10:00:00.000Z');
    expect(r.end.toISOString()).toBe('2026-03-11T10:00:00.000Z');
    // On a date field, `now` is the viewer's day.
    expect(range('{now}', at('2026-03-11T23:30:00.000Z', 'Asia/Tokyo')).firstDay).toBe(
      '2026-03-12',
    );
  });
});

describe('resolveRelativeDates', () => {
  const clock = at('2026-03-11T12:00:00.000Z', 'Europe/Berlin');
  const types: Record<string, string> = {
    'Due Date': 'DATE',
    'Created At': 'DATETIME',
    Title: 'TEXT',
    Status: 'PICKLIST',
  };
  const typeOf = (selector: string) => types[selector];
  const resolve = (text: string) => serialize(resolveRelativeDates(parse(text), typeOf, clock));

  it('turns day ranges into two comparisons ANDed', () => {
    expect(resolve('Due Date=={last7d}')).toBe('Due Date=ge=2026-03-05;Due Date=le=2026-03-11');
    expect(resolve('Created At=={today}')).toBe(
      'Created At=ge=2026-03-10T23:00:00.000Z;Created At=lt=2026-03-11T23:00:00.000Z',
    );
  });

  it('keeps single days and instants as one comparison', () => {
    expect(resolve('Due Date=={today-7d}')).toBe('Due Date==2026-03-04');
    expect(resolve('Due Date!={yesterday}')).toBe('Due Date!=2026-03-10');
    expect(resolve('Created At=lt={now}')).toBe('Created At=lt=2026-03-11T12:00:00.000Z');
    expect(resolve('Due Date=lt={now}')).toBe('Due Date=lt=2026-03-11');
  });

  it('bounds the other operators by the first or last day', () => {
    expect(resolve('Due Date!={thisWeek}')).toBe('Due Date!bt=(2026-03-09,2026-03-15)');
    expect(resolve('Created At!={today}')).toBe(
      'Created At!bt=(2026-03-10T23:00:00.000Z,2026-03-11T22:59:59.999Z)',
    );
    expect(resolve('Due Date=lt={thisWeek}')).toBe('Due Date=lt=2026-03-09');
    expect(resolve('Due Date=ge={thisWeek}')).toBe('Due Date=ge=2026-03-09');
    expect(resolve('Due Date=le={thisWeek}')).toBe('Due Date=le=2026-03-15');
    expect(resolve('Due Date=gt={thisWeek}')).toBe('Due Date=gt=2026-03-15');
    expect(resolve('Created At=le={today}')).toBe('Created At=lt=2026-03-11T23:00:00.000Z');
    expect(resolve('Created At=gt={today}')).toBe('Created At=ge=2026-03-11T23:00:00.000Z');
    expect(resolve('Created At=ge={today}')).toBe('Created At=ge=2026-03-10T23:00:00.000Z');
    expect(resolve('Due Date=bt=({lastMonth},{today})')).toBe(
      'Due Date=bt=(2026-02-01,2026-03-11)',
    );
    expect(resolve('Due Date=bt=(2026-01-01,{yesterday})')).toBe(
      'Due Date=bt=(2026-01-01,2026-03-10)',
    );
    expect(resolve('Created At!bt=({yesterday},{today})')).toBe(
      'Created At!bt=(2026-03-09T23:00:00.000Z,2026-03-11T22:59:59.999Z)',
    );
  });

  it('stays one flat AND, and valid in the hosted dialect inside an OR', () => {
    const and = resolveRelativeDates(parse('Status==Open;Due Date=={thisWeek}'), typeOf, clock);
    expect(stripSpans(and)).toEqual(
      stripSpans(parse('Status==Open;Due Date=ge=2026-03-09;Due Date=le=2026-03-15')),
    );
    const or = resolveRelativeDates(parse('Status==Open,Due Date=={thisWeek}'), typeOf, clock);
    const hosted = serialize(or, { dialect: 'hosted' });
    expect(hosted).toBe('Status==Open,Due Date=ge=2026-03-09;Due Date=le=2026-03-15');
    expect(() => parse(hosted, { dialect: 'hosted' })).not.toThrow();
  });

  it('leaves other fields, unknown fields and filters without relative dates alone', () => {
    const plain = parse('Title=={today};Nope=={today};Due Date==2026-01-01');
    expect(resolveRelativeDates(plain, typeOf, clock)).toBe(plain);
  });

  it('refuses relative dates in lists, and expansions past the comparison limit', () => {
    expect(errorOf(() => resolve('Due Date=in=({today},2026-01-01)')).code).toBe(
      'INVALID_RELATIVE_DATE',
    );
    const many = Array.from({ length: 60 }, () => 'Due Date=={thisWeek}').join(';');
    expect(errorOf(() => resolve(many)).code).toBe('TOO_MANY_COMPARISONS');
  });

  it('round-trips relative text through the parser and serializer unchanged', () => {
    for (const text of [
      'Due Date=={today-7d}',
      'Due Date=ge={now+12h};Created At=={last30d}',
      'Due Date=bt=({lastMonth},{next7d})',
    ]) {
      expect(serialize(parse(text))).toBe(text);
    }
  });
});

describe('checkRelativeDates', () => {
  const typeOf = (selector: string) => (selector === 'Due Date' ? 'DATE' : 'TEXT');

  it('points at the offending character of the whole filter', () => {
    const text = 'Status==Open;Due Date=ge={lastt7d}';
    const error = errorOf(() => checkRelativeDates(parse(text), text, typeOf));
    expect(error.code).toBe('INVALID_RELATIVE_DATE');
    expect(error.position).toBe(text.indexOf('lastt'));
    expect(error.message).toMatch(new RegExp(`at position ${text.indexOf('lastt')}, in`));
    const quoted = "Due Date=='{today-3x}'";
    expect(errorOf(() => checkRelativeDates(parse(quoted), quoted, typeOf)).position).toBe(
      quoted.indexOf('x'),
    );
  });

  it('rejects relative dates with list operators at the value', () => {
    const text = 'Due Date=in=(2026-01-01,{today})';
    expect(errorOf(() => checkRelativeDates(parse(text), text, typeOf)).position).toBe(
      text.indexOf('{'),
    );
  });

  it('accepts valid relative dates and braces on other fields', () => {
    const text = 'Due Date=={last7d};Title=={whatever';
    expect(() => checkRelativeDates(parse(text), text, typeOf)).not.toThrow();
  });
});
