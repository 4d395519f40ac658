import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DefinitionListSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { toPublicDefinition } from '../../workspace/definitions.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('GET /v1/definitions', () => {
  it('names `id` as every definition’s handle field', async () => {
    const res = await h.request('GET', '/v1/definitions', { token: h.tokens.admin });
    expect(res.status).toBe(200);
    const { items } = DefinitionListSchema.parse(res.json);
    expect(items).toHaveLength(4);
    for (const definition of items) {
      expect(definition.handleField).toBe('id');
      expect(definition.fields[0]).toEqual({
        name: 'id',
        type: 'HANDLE',
        required: false,
        readOnly: true,
      });
    }
  });

  it('describes in the hosted profile the fields the hosted records carry instead', () => {
    const tickets = h.deps.workspace.find('apps', 'support-tickets');
    const refunds = h.deps.workspace.find('transactions', 'refunds');
    if (!tickets || !refunds) throw new Error('demo workspace missing');
    const hosted = toPublicDefinition(tickets, 'hosted');
    expect(hosted.handleField).toBe('Ticket ID');
    expect(hosted.fields.filter((field) => field.readOnly)).toEqual([
      { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Created on', type: 'DATETIME', required: false, readOnly: true },
      { name: 'Created by', type: 'USER_ID', required: false, readOnly: true },
      { name: 'Updated on', type: 'DATETIME', required: false, readOnly: true },
      { name: 'Updated by', type: 'USER_ID', required: false, readOnly: true },
    ]);
    // The definition's own fields are the same in both profiles.
    const own = (profile: 'extended' | 'hosted') =>
      toPublicDefinition(tickets, profile).fields.filter((field) => !field.readOnly);
    expect(own('hosted')).toEqual(own('extended'));
    const noHandle = toPublicDefinition(refunds, 'hosted');
    expect(noHandle).not.toHaveProperty('handleField');
    expect(noHandle.fields.some((field) => field.type === 'HANDLE')).toBe(false);
  });
});
