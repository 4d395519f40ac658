import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import { ConfigFileError } from './config-file.ts';
import { definitionProblems, forHosted, readWorkspaceFile } from './workspace-definitions.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bff-workspace-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function file(content: unknown): Promise<string> {
  const name = path.join(dir, `workspace-${++n}.json`);
  await writeFile(name, JSON.stringify(content));
  return name;
}

/** A definition as the workspace API's own workspace file writes it (groups, hostedFields). */
const tickets = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  titleField: 'Title',
  groups: ['Support Tier 1'],
  hostedFields: { handle: 'Ticket ID' },
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open'] },
    { name: 'Tags', type: 'MULTI_PICKLIST', values: ['vip', 'urgent'] },
  ],
};

describe('BFF_WORKSPACE_FILE', () => {
  it("reads the workspace API's file format, ignoring groups and other keys", async () => {
    const definitions = readWorkspaceFile(
      'BFF_WORKSPACE_FILE',
      await file({ groups: [{ name: 'Support Tier 1' }], definitions: [tickets] }),
    );
    expect(definitions).toHaveLength(1);
    expect(definitions[0]).toEqual({
      recordType: 'apps',
      alias: 'support-tickets',
      name: 'Support Tickets',
      handle: 'SUP',
      handleField: 'Ticket ID',
      titleField: 'Title',
      fields: [
        { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
        { name: 'Title', type: 'TEXT', required: true },
        { name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open'] },
        { name: 'Tags', type: 'MULTI_PICKLIST', required: false, values: ['vip', 'urgent'] },
      ],
    });
  });

  /** The problems a file's ConfigFileError names (and that it names the variable). */
  async function problemsOf(content: unknown): Promise<string[]> {
    try {
      readWorkspaceFile('BFF_WORKSPACE_FILE', await file(content));
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      expect(error.message).toMatch(/^BFF_WORKSPACE_FILE \(/);
      return error.problems;
    }
    throw new Error('expected a ConfigFileError');
  }

  it('fails on a shape problem, naming the entry and key', async () => {
    expect(await problemsOf({ definitions: [{ ...tickets, recordType: 'rockets' }] })).toEqual([
      'definitions.0.recordType: Invalid option: expected one of "apps"|"elements"|"tasks"|"transactions"',
    ]);
    expect(await problemsOf({ groups: [] })).toEqual([
      'definitions: Invalid input: expected array, received undefined',
    ]);
  });

  it('fails naming every rule broken: duplicates, unknown handle/title fields, picklists', async () => {
    const problems = await problemsOf({
      definitions: [
        tickets,
        { ...tickets, titleField: 'Nope', handleField: 'Missing' },
        {
          ...tickets,
          alias: 'other',
          handleField: undefined,
          fields: [
            { name: 'Title', type: 'TEXT' },
            { name: 'Title', type: 'TEXT' },
            { name: 'Status', type: 'PICKLIST' },
            { name: 'Tags', type: 'MULTI_PICKLIST', values: ['a,b'] },
          ],
        },
      ],
    });
    expect(problems).toEqual([
      'definitions.1: apps/support-tickets is defined twice',
      'definitions.1.handleField: No field named "Missing"',
      'definitions.1.titleField: No field named "Nope"',
      'definitions.2.fields.1.name: Another field is named "Title"',
      'definitions.2.fields.2.values: A picklist needs at least one value',
      'definitions.2.fields.3.values.0: A multi-picklist value cannot contain a comma',
    ]);
  });
});

describe('definition rules', () => {
  const base: Definition = {
    recordType: 'apps',
    alias: 'a',
    name: 'A',
    handle: 'A',
    fields: [{ name: 'Title', type: 'TEXT', required: false }],
  };

  it('refuses NUL and unpaired surrogates, and (with limits) oversized text', () => {
    expect(definitionProblems({ ...base, name: 'a\u0000b' })).toEqual([
      { field: 'name', message: 'Must not contain NUL characters' },
    ]);
    expect(
      definitionProblems({ ...base, fields: [{ name: 'x\uD800', type: 'TEXT', required: false }] }),
    ).toEqual([{ field: 'fields.0.name', message: 'Must not contain unpaired surrogates' }]);
    expect(definitionProblems({ ...base, name: 'n'.repeat(300) })).toEqual([]);
    expect(definitionProblems({ ...base, name: 'n'.repeat(300) }, { limits: true })).toEqual([
      { field: 'name', message: 'At most 200 characters' },
    ]);
  });

  it('marks elements not listable in the hosted profile, and nothing else', () => {
    expect(forHosted({ ...base, recordType: 'elements' }).listable).toBe(false);
    expect(forHosted(base).listable).toBeUndefined();
  });
});
