import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor, RecordPagedListSchema } from '@wsc/api-client';

import type { Session } from '@/features/auth/api/session.ts';
import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { startShell } from './start-shell.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const session: Session = {
  user: { clientId: 'c1', email: 'ana@example.com', role: 'ADMIN', identity: 'api' },
  region: 'default',
  expiresAt: '2030-01-01T00:00:00.000Z',
  capabilities: capabilitiesFor('extended'),
};

describe('startShell', () => {
  it('takes the session from the sign-in and asks for the definitions and saved views at once', async () => {
    // Both answers are held until both requests were sent: asked one after another, the first
    // would never be answered and this test would time out.
    const asked: string[] = [];
    let release = () => {};
    const allAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const replies: Record<string, unknown> = {
      '/bff/definitions': { items: [ticketsDefinition] },
      '/bff/views': { items: [] },
    };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      asked.push(path);
      if (asked.length === 2) release();
      await allAsked;
      return jsonResponse(replies[path] ?? {});
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

    startShell(queryClient, session);

    // The session is there at once, without a request for it.
    expect(queryClient.getQueryData(sessionQueryOptions().queryKey)).toEqual(session);
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(definitionsQueryOptions().queryKey)).toBeDefined();
      expect(queryClient.getQueryData(savedViewsQueryOptions().queryKey)).toEqual([]);
    });
    expect(asked.sort()).toEqual(['/bff/definitions', '/bff/views']);
  });

  it('keeps the definitions the sign-in brought, and asks only for the views', async () => {
    const asked: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      asked.push(new URL(String(input), 'http://console.test').pathname);
      return jsonResponse({ items: [] });
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const page = RecordPagedListSchema.parse({
      paging: { has_previous_page: false, has_next_page: false },
      total: 1,
      items: [{ cursor: 'c1', data: { id: 'SUP-1', Title: 'Printer' } }],
    });

    const request = { recordType: 'apps' as const, alias: 'support-tickets', first: 100 };
    startShell(queryClient, {
      ...session,
      definitions: [ticketsDefinition],
      firstPage: { request, page },
    });

    // The session as GET /bff/session answers it: without what came beside it.
    expect(queryClient.getQueryData(sessionQueryOptions().queryKey)).toEqual(session);
    expect(queryClient.getQueryData(definitionsQueryOptions().queryKey)).toEqual({
      items: [ticketsDefinition],
    });
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(savedViewsQueryOptions().queryKey)).toEqual([]),
    );
    expect(asked).toEqual(['/bff/views']);
  });
  it('keeps the saved views the sign-in brought: nothing is asked before the first list', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse({}));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const view = {
      id: '0b6f5f9e-2a53-4a0e-9a40-1f7f6bb9f2a1',
      name: 'Open tickets',
      recordType: 'apps' as const,
      alias: 'support-tickets',
      filter: 'Status==Open',
      sort: '',
      columns: [],
      isDefault: true,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    };

    startShell(queryClient, { ...session, definitions: [ticketsDefinition], views: [view] });

    expect(queryClient.getQueryData(sessionQueryOptions().queryKey)).toEqual(session);
    expect(queryClient.getQueryData(savedViewsQueryOptions().queryKey)).toEqual([view]);
    // Let any request the shell would start go out: there is none.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });
  it('forgets the previous session’s answers', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse({ items: [] }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(['records', 'apps', 'support-tickets', 'SUP-1'], { secret: 'theirs' });

    startShell(queryClient, { ...session, definitions: [ticketsDefinition], views: [] });

    expect(
      queryClient.getQueryData(['records', 'apps', 'support-tickets', 'SUP-1']),
    ).toBeUndefined();
    expect(queryClient.getQueryData(sessionQueryOptions().queryKey)).toEqual(session);
  });
});
