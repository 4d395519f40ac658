import { describe, expect, it } from 'vitest';

import { requestFilter } from './request-filter.ts';

const fields = [
  { name: 'Due Date', type: 'DATE' as const },
  { name: 'Created At', type: 'DATETIME' as const },
  { name: 'Title', type: 'TEXT' as const },
];
// The test run's zone: the resolution follows the viewer's zone, whatever it is.
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const noon = new Date('2026-03-11T12:00:00.000Z');

describe('requestFilter', () => {
  it('sends dates for relative values and computes them at each call', () => {
    const day = (iso: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(iso));
    expect(requestFilter('Due Date=={today}', fields, noon)).toBe(
      `Due Date==${day(noon.toISOString())}`,
    );
    const weekLater = new Date('2026-03-18T12:00:00.000Z');
    expect(requestFilter('Due Date=={today}', fields, weekLater)).toBe(
      `Due Date==${day(weekLater.toISOString())}`,
    );
    expect(requestFilter('Created At=lt={now}', fields, noon)).toBe(
      'Created At=lt=2026-03-11T12:00:00.000Z',
    );
  });

  it('leaves filters without relative dates, text fields and bad text as they are', () => {
    expect(requestFilter(undefined, fields)).toBeUndefined();
    expect(requestFilter('', fields)).toBeUndefined();
    expect(requestFilter('Title=={today}', fields, noon)).toBe('Title=={today}');
    expect(requestFilter('Due Date==2026-01-01', fields, noon)).toBe('Due Date==2026-01-01');
    expect(requestFilter('Due Date=={lastt7d}', fields, noon)).toBe('Due Date=={lastt7d}');
    expect(requestFilter('Due Date=={today', fields, noon)).toBe('Due Date=={today');
  });
});
