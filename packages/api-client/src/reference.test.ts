// The repository carries its own copy of the hosted API's published contract; nothing in it may
// depend on files outside the clone (a bare clone must pass the whole suite).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { OPENAPI_PATH } from './testing/prism.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The folder beside the clone, spelled in parts so that this file is checked like any other. */
const BESIDE_THE_CLONE = ['..', 'shared'].join('/');

describe('the contract the repo carries', () => {
  it('is a readable OpenAPI 3 document of the hosted API', () => {
    const spec = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toContain('/{recordType}/{alias}');
  });

  it('no tracked file reads or links anything beside the clone', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file !== '');
    const outside = files.filter((file) => {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), 'utf8');
      } catch {
        return false; // deleted in the working tree
      }
      return text.includes(BESIDE_THE_CLONE);
    });
    expect(outside).toEqual([]);
  });
});
