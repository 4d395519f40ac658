import { describe, expect, it } from 'vitest';

import type { DateValueKind } from './relative-date.ts';
import {
  DATE_VALUE_KINDS,
  dateValueChoice,
  dateValueText,
  defaultDays,
  relativeDateHint,
} from './relative-date.ts';

describe('date value menu', () => {
  it('turns every menu entry into relative text and reads it back as the same entry', () => {
    for (const { kind, count } of DATE_VALUE_KINDS) {
      if (kind === 'exact') continue;
      const days = count ? 12 : 0;
      const text = dateValueText({ kind, days }, '');
      const operator = kind === 'overdue' ? '=lt=' : '==';
      expect(dateValueChoice(text, operator), `${kind} -> ${text}`).toEqual({ kind, days });
    }
  });

  it('writes the counted entries with their number', () => {
    const text = (kind: DateValueKind, days: number) => dateValueText({ kind, days }, '');
    expect(text('lastDays', 7)).toBe('{last7d}');
    expect(text('nextDays', 30)).toBe('{next30d}');
    expect(text('daysAgo', 3)).toBe('{today-3d}');
    expect(text('inDays', 2)).toBe('{today+2d}');
    // Out-of-range numbers are clamped to what the grammar reads.
    expect(text('lastDays', 0)).toBe('{last1d}');
    expect(text('lastDays', 123456)).toBe('{last9999d}');
    expect(text('daysAgo', 0)).toBe('{today-0d}');
    expect(defaultDays('lastDays')).toBe(7);
    expect(defaultDays('daysAgo')).toBe(1);
  });

  it('keeps dates, other relative forms and broken text as they are', () => {
    expect(dateValueChoice('2026-01-01', '==')).toEqual({ kind: 'exact', days: 0 });
    expect(dateValueChoice('{now}', '==')).toEqual({ kind: 'now', days: 0 });
    expect(dateValueChoice('{now-2h}', '==').kind).toBe('custom');
    expect(dateValueChoice('{today+1w}', '==').kind).toBe('custom');
    expect(dateValueChoice('{lastt7d}', '==').kind).toBe('custom');
    expect(dateValueText({ kind: 'custom', days: 0 }, '{now-2h}')).toBe('{now-2h}');
    expect(dateValueText({ kind: 'exact', days: 0 }, '{today}')).toBe('');
  });

  it('shows the days a relative value means now', () => {
    const clock = { now: new Date('2026-03-11T12:00:00.000Z'), timeZone: 'UTC' };
    expect(relativeDateHint('{thisWeek}', clock)).toMatch(/\b9\b.*–.*\b15\b.*2026/);
    expect(relativeDateHint('{yesterday}', clock)).toMatch(/\b10\b.*2026/);
    expect(relativeDateHint('{now}', clock)).toBe('the time of the search');
    expect(relativeDateHint('2026-01-01', clock)).toBe('');
    expect(relativeDateHint('{bad}', clock)).toBe('');
  });
});
