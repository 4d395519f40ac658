import { describe, expect, it } from 'vitest';

import {
  formatDate,
  isoToDateInput,
  isoToLocalInput,
  isTimestamp,
  localInputToIso,
} from './format.ts';

// vitest.config.ts runs these in Europe/Paris (UTC+1 in winter, UTC+2 in summer).
describe('date conversions', () => {
  it('turns local wall time into a UTC wire timestamp and back', () => {
    expect(localInputToIso('2024-07-01T14:30')).toBe('2024-07-01T12:30:00.000Z');
    expect(localInputToIso('2024-01-15T09:00:05')).toBe('2024-01-15T08:00:05.000Z');
    expect(isoToLocalInput('2024-07-01T12:30:00.000Z')).toBe('2024-07-01T14:30');
    expect(isoToLocalInput('2024-01-15T08:00:05.000Z')).toBe('2024-01-15T09:00:05');
    expect(localInputToIso('')).toBe('');
    expect(localInputToIso('garbage')).toBe('');
  });

  it('keeps calendar dates as dates, never shifted by the zone', () => {
    expect(isoToDateInput('2024-03-31')).toBe('2024-03-31');
    expect(isoToDateInput('2024-03-31T00:00:00.000Z')).toBe('2024-03-31');
    expect(isoToDateInput('')).toBe('');
    expect(formatDate('2024-03-31')).toContain('31');
    expect(formatDate('2024-01-01')).toContain('2024');
  });

  it('recognises the wire format', () => {
    expect(isTimestamp(localInputToIso('2024-07-01T14:30'))).toBe(true);
    expect(isTimestamp('2024-07-01T14:30:00Z')).toBe(false);
  });
});
