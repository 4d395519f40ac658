// The records list a sign-in leads to, read from the console's own URL as its router reads it.
import { describe, expect, it } from 'vitest';

import { firstPageOf, SIGN_IN_FIRST_PAGE_SIZE } from './first-page-of.ts';

const first = SIGN_IN_FIRST_PAGE_SIZE;

describe('firstPageOf', () => {
  it('reads the list, its filter and its sort from a records list URL', () => {
    const filter = encodeURIComponent('Status==Open;Priority=in=(High,Urgent)');
    expect(firstPageOf(`/records/apps/support-tickets?filter=${filter}&sort=-Priority`)).toEqual({
      recordType: 'apps',
      alias: 'support-tickets',
      filter: 'Status==Open;Priority=in=(High,Urgent)',
      sort: '-Priority',
      first,
    });
    // A record open in the panel, or the triage queue: the same list is what shows first.
    expect(firstPageOf('/records/tasks/todo/T-1')).toEqual({
      recordType: 'tasks',
      alias: 'todo',
      first,
    });
    expect(firstPageOf('/records/apps/support%20desk/triage')).toBeUndefined();
    expect(firstPageOf('/records/apps/caf%C3%A9')).toEqual({
      recordType: 'apps',
      alias: 'café',
      first,
    });
  });

  it('reads JSON-looking values as the router does: a JSON string is its text, anything else is dropped', () => {
    expect(firstPageOf(`/records/apps/a?filter=${encodeURIComponent('"Title==x"')}`)?.filter).toBe(
      'Title==x',
    );
    expect(firstPageOf('/records/apps/a?filter=123')).toEqual({
      recordType: 'apps',
      alias: 'a',
      first,
    });
  });

  it('reads nothing where the first page cannot be named now, or the page is no records list', () => {
    for (const next of [
      undefined,
      '/',
      '/users',
      '/records/apps',
      '/records/planets/x',
      '/records/apps/a/b/c',
      '//evil.example/records/apps/a',
      'https://evil.example/records/apps/a',
      '/records/apps/a?cursor=abc',
      `/records/apps/a?filter=${encodeURIComponent('Created At>={today-7d}')}`,
      `/records/apps/a?filter=${'x'.repeat(4097)}`,
      '/records/apps/%E0%A4%A',
    ]) {
      expect(firstPageOf(next), String(next)).toBeUndefined();
    }
  });
});
