import { describe, expect, it } from 'vitest';

import {
  cleanFileName,
  contentDisposition,
  parseRange,
  sanitizeMediaType,
  servedContentType,
} from './attachments.files.ts';

describe('cleanFileName', () => {
  it('drops paths, control and invisible characters; keeps unicode; never empty', () => {
    expect(cleanFileName('C:\\Users\\ana\\report\u0000.pdf')).toBe('report.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('in\u202Evoice\u200b.txt')).toBe('invoice.txt');
    expect(cleanFileName('日本語 ✓.txt')).toBe('日本語 ✓.txt');
    expect(cleanFileName('  ')).toBe('attachment');
    expect(cleanFileName('dir/')).toBe('attachment');
    expect([...cleanFileName('é'.repeat(300))]).toHaveLength(255);
  });
});

describe('media types', () => {
  it('keeps valid type/subtype lower-cased and replaces anything else', () => {
    expect(sanitizeMediaType('Text/CSV; charset=utf-8')).toBe('text/csv');
    expect(sanitizeMediaType('evil\r\nX-Injected: 1')).toBe('application/octet-stream');
    expect(sanitizeMediaType(undefined)).toBe('application/octet-stream');
    expect(sanitizeMediaType('text')).toBe('application/octet-stream');
  });

  it('serves active content as octet-stream', () => {
    expect(servedContentType('text/html')).toBe('application/octet-stream');
    expect(servedContentType('image/svg+xml')).toBe('application/octet-stream');
    expect(servedContentType('application/atom+xml')).toBe('application/octet-stream');
    expect(servedContentType('image/png')).toBe('image/png');
    expect(servedContentType('application/pdf')).toBe('application/pdf');
  });
});

describe('contentDisposition', () => {
  it('quotes an ASCII fallback and encodes the UTF-8 name per RFC 5987', () => {
    expect(contentDisposition('a "b";c.txt')).toBe(
      `attachment; filename="a _b__c.txt"; filename*=UTF-8''a%20%22b%22%3Bc.txt`,
    );
    expect(contentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});

describe('parseRange', () => {
  it('reads single ranges and ignores what it cannot serve', () => {
    expect(parseRange(undefined, 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-4', 10)).toEqual({ kind: 'partial', start: 0, end: 4 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ kind: 'partial', start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'partial', start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,3-4', 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=5-2', 10)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'full' });
  });
});
