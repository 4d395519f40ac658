import { describe, expect, it } from 'vitest';

import { compressibleResponse, preferredEncoding, withVary } from './compression.ts';

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['gzip;q=1, br;q=0.9', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', undefined],
    ['deflate, zstd', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['', undefined],
  ])('%j -> %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });

  it('chooses only among the copies there are', () => {
    expect(preferredEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(preferredEncoding('br', ['gzip'])).toBeUndefined();
    expect(preferredEncoding(undefined, ['br', 'gzip'])).toBeUndefined();
  });
});

describe('compressibleResponse', () => {
  it('takes JSON and problem documents with a body, nothing else', () => {
    expect(compressibleResponse(200, { 'content-type': 'application/json' })).toBe(true);
    expect(compressibleResponse(404, { 'content-type': 'application/problem+json' })).toBe(true);
    expect(compressibleResponse(200, { 'content-type': 'application/json; charset=utf-8' })).toBe(
      true,
    );
    expect(compressibleResponse(200, { 'content-type': 'application/jsonx' })).toBe(false);
    expect(compressibleResponse(200, { 'content-type': 'application/pdf' })).toBe(false);
    expect(compressibleResponse(206, { 'content-type': 'application/json' })).toBe(false);
    expect(compressibleResponse(204, { 'content-type': 'application/json' })).toBe(false);
    expect(
      compressibleResponse(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
    ).toBe(false);
    expect(
      compressibleResponse(200, {
        'content-type': 'application/json',
        'content-disposition': 'attachment',
      }),
    ).toBe(false);
  });
});

describe('withVary', () => {
  it('adds Accept-Encoding once', () => {
    expect(withVary(undefined)).toBe('Accept-Encoding');
    expect(withVary('Origin')).toBe('Origin, Accept-Encoding');
    expect(withVary('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(withVary('*')).toBe('*');
  });
});
