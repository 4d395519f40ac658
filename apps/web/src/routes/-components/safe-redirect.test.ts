import { describe, expect, it } from 'vitest';

import { safeRedirect } from './safe-redirect.ts';

const ORIGIN = 'https://console.example';

/** What a browser would do with the result: it must stay on the console's origin. */
function staysHome(result: string): boolean {
  return (
    result.startsWith('/') &&
    !result.startsWith('//') &&
    !result.startsWith('/\\') &&
    new URL(result, ORIGIN).origin === ORIGIN
  );
}

describe('safeRedirect', () => {
  it('keeps paths and same-origin URLs on the console, with their query and fragment', () => {
    const kept: [string, string][] = [
      [
        '/records/apps/support-tickets?filter=Status%3D%3DOpen',
        '/records/apps/support-tickets?filter=Status%3D%3DOpen',
      ],
      ['/users/42#tab=groups', '/users/42#tab=groups'],
      [`${ORIGIN}/groups?x=1`, '/groups?x=1'],
      ['/records/apps/a%2F%2Fb', '/records/apps/a%2F%2Fb'],
      ['/records?redirect=//evil.example', '/records?redirect=//evil.example'],
      ['https:records', '/records'],
    ];
    for (const [input, expected] of kept) expect(safeRedirect(input, ORIGIN), input).toBe(expected);
  });

  it('never returns //host, /\\host or anything that leaves the origin', () => {
    const hostile = [
      '//evil.example',
      '///evil.example',
      '////evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '\\/evil.example',
      '/.//evil.example',
      '/./\\evil.example',
      '/%2e//evil.example',
      '/%2E//evil.example',
      '/a/..//evil.example',
      '/a/%2e%2e//evil.example',
      `${ORIGIN}//evil.example`,
      `${ORIGIN}/.//evil.example`,
      `${ORIGIN}\\\\evil.example`,
      'https://evil.example/',
      'http://console.example/',
      'https://console.example.evil.example/',
      'https://evil.example@console.example.evil.example/',
      'http:evil.example',
      'ftp://evil.example',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      '\t//evil.example',
      '/%09/evil.example',
      '/\u0000/evil.example',
      '//evil.example/%2e%2e',
      '/sign-in?redirect=//evil.example',
      '/sign-in',
    ];
    for (const input of hostile) {
      const result = safeRedirect(input, ORIGIN);
      expect(staysHome(result), `${JSON.stringify(input)} -> ${result}`).toBe(true);
      // None of these may produce anything but home, or a harmless path on this origin.
      expect(result.includes('evil.example') && !result.startsWith('/%'), input).toBe(false);
    }
  });

  it('goes home for nothing at all', () => {
    expect(safeRedirect(undefined, ORIGIN)).toBe('/');
    expect(safeRedirect('', ORIGIN)).toBe('/');
  });
});
