import { describe, expect, it } from 'vitest';

import { isDownloadable, linkTarget } from './attachments.ts';

const link = { mediaType: 'text/uri-list', name: 'Status', url: undefined, contentUrl: null };

/** Values a hostile or broken server could put in `url`, `name` or `contentUrl`. */
const HOSTILE = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u0000javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://files.example/x',
  'blob:https://console.example/1234',
  '//evil.example/x',
  '/api/v1/apps/x/SUP-1',
  'https://',
  'not a url',
];

describe('linkTarget', () => {
  it('links absolute http(s) URLs only, from url, name or contentUrl', () => {
    expect(linkTarget({ ...link, url: 'https://status.example.com/' })).toBe(
      'https://status.example.com/',
    );
    expect(linkTarget({ ...link, name: 'http://docs.example.com/a?b#c' })).toBe(
      'http://docs.example.com/a?b#c',
    );
    expect(linkTarget({ ...link, contentUrl: 'HTTPS://Docs.Example.com' })).toBe(
      'https://docs.example.com/',
    );
  });

  it('never turns a hostile url, name or contentUrl into a link', () => {
    for (const value of HOSTILE) {
      expect(linkTarget({ ...link, url: value }), `url ${value}`).toBeUndefined();
      expect(linkTarget({ ...link, name: value }), `name ${value}`).toBeUndefined();
      expect(linkTarget({ ...link, contentUrl: value }), `contentUrl ${value}`).toBeUndefined();
      // A hostile `url` does not fall back to a link elsewhere either, nor on a file.
      expect(
        linkTarget({ ...link, url: value, name: 'https://ok.example/' }),
        `url ${value} with an http name`,
      ).toBeUndefined();
      expect(linkTarget({ ...link, mediaType: 'application/pdf', url: value })).toBeUndefined();
    }
  });

  it('a file with a content URL is downloadable (through the API, never followed as a link)', () => {
    const file = { mediaType: 'application/pdf', name: 'a.pdf', url: undefined };
    expect(isDownloadable({ ...file, contentUrl: '/v1/apps/x/SUP-1/attachments/a/content' })).toBe(
      true,
    );
    expect(isDownloadable({ ...file, contentUrl: null })).toBe(false);
  });
});
