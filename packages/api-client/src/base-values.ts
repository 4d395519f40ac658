// The console's hosted save (issue 27's save protocol): the values the user saw of the fields a
// PUT changes travel to the BFF in one header, so that the BFF, not the browser, checks that
// nobody changed them meanwhile (one browser -> BFF round trip, no re-read in the browser).
import type { RecordData } from './schemas/records.ts';

/** The header a record PUT carries its base values in. The BFF never forwards it upstream. */
export const BASE_VALUES_HEADER = 'X-Base-Values';

/**
 * The `X-Base-Values` value: base64url (no padding) of the UTF-8 JSON object `{field: value the
 * user saw}`.
 *
 * @example
 * encodeBaseValues({ Status: 'New' }); // 'eyJTdGF0dXMiOiJOZXcifQ'
 */
export function encodeBaseValues(values: RecordData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(values));
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are limited.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
