import { describe, expect, it } from 'vitest';

import { mediaTypeLabel } from './media-type.ts';

describe('mediaTypeLabel', () => {
  it('names common types and derives the rest', () => {
    expect(mediaTypeLabel('application/pdf')).toBe('PDF');
    expect(mediaTypeLabel('text/uri-list')).toBe('Link');
    expect(mediaTypeLabel('image/png')).toBe('PNG image');
    expect(mediaTypeLabel('image/svg+xml')).toBe('SVG image');
    expect(mediaTypeLabel('application/x-tar')).toBe('TAR');
  });
});
