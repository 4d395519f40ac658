import { describe, expect, it } from 'vitest';

import { isPlainCode, isWhitespaceCode, quote, TIMESTAMP } from './syntax.ts';

describe('syntax', () => {
  it('reserves the documented characters and controls', () => {
    const reserved = [...`"'();,\\=!<>~ \t\n\u0000\u007f\u0085\u00a0\u3000`];
    expect(reserved.filter((ch) => isPlainCode(ch.charCodeAt(0)))).toEqual([]);
    const plain = [...'*@.-+:/%#&?$[]{}|^_aZ09é日\u00ad'];
    expect(plain.filter((ch) => !isPlainCode(ch.charCodeAt(0)))).toEqual([]);
  });

  it('quotes with single quotes, escaping quotes and backslashes', () => {
    expect(quote(`it's a \\ "b"`)).toBe(`'it\\'s a \\\\ "b"'`);
  });

  it('treats exactly the \\s characters as whitespace', () => {
    for (let c = 0; c <= 0xffff; c++) {
      if (isWhitespaceCode(c) !== /\s/.test(String.fromCharCode(c)))
        throw new Error(`U+${c.toString(16)}`);
    }
  });

  it('ends a list timestamp exactly where an element can end', () => {
    const time = '2024-01-01T10:00';
    for (let c = 0; c <= 0xffff; c++) {
      if ((c >= 0xd800 && c <= 0xdfff) || c === 0x5a) continue; // surrogates; 'Z' extends the time
      TIMESTAMP.lastIndex = 0;
      const matched = TIMESTAMP.exec(time + String.fromCharCode(c))?.[0];
      const boundary = c === 0x3a || !isPlainCode(c);
      if ((matched === time) !== boundary) throw new Error(`U+${c.toString(16)}`);
    }
  });
});
