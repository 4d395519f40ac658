import { describe, expect, it } from 'vitest';

import type { WorkspaceFile } from './definitions.ts';
import { DEFAULT_HOSTED_FIELDS, WorkspaceFileSchema } from './definitions.ts';

const file = (hostedFields?: Record<string, string | null>): WorkspaceFile => ({
  definitions: [
    {
      recordType: 'apps',
      alias: 'incidents',
      name: 'Incidents',
      handle: 'INC',
      fields: [
        { name: 'Title', type: 'TEXT', required: true },
        { name: 'Opened on', type: 'DATE' },
      ],
      ...(hostedFields ? { hostedFields } : {}),
    },
  ],
});

const issues = (input: WorkspaceFile) => {
  const result = WorkspaceFileSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('hostedFields in a workspace file', () => {
  it('defaults to Key and the Created/Updated on/by names', () => {
    const parsed = WorkspaceFileSchema.parse(file());
    expect(parsed.definitions[0]?.hostedFields).toEqual(DEFAULT_HOSTED_FIELDS);
    expect(DEFAULT_HOSTED_FIELDS).toEqual({
      handle: 'Key',
      createdAt: 'Created on',
      createdBy: 'Created by',
      updatedAt: 'Updated on',
      updatedBy: 'Updated by',
    });
  });

  it('takes a partial object, and null for no handle field', () => {
    const parsed = WorkspaceFileSchema.parse(file({ handle: null, createdAt: 'Logged' }));
    expect(parsed.definitions[0]?.hostedFields).toEqual({
      ...DEFAULT_HOSTED_FIELDS,
      handle: null,
      createdAt: 'Logged',
    });
  });

  it('refuses names that clash with a field or with each other, and unknown keys', () => {
    expect(issues(file({ createdAt: 'Opened on' }))).toEqual([
      'incidents: hostedFields name Opened on is also a field',
    ]);
    expect(issues(file({ handle: 'Created by' }))).toEqual([
      'Duplicate hostedFields name in incidents: Created by',
    ]);
    expect(issues(file({ handle: ' Key' })).length).toBe(1);
    expect(issues(file({ owner: 'Owner' })).length).toBe(1);
  });
});
