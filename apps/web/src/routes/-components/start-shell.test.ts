import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';

import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { startShell } from './start-shell.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const session = {
  user: { clientId: 'c1', email: 'ana@example.com', role: 'ADMIN', identity: 'api' },
  region: 'default',
  expiresAt: '2030-01-01T00:00:00.000Z',
  capabilities: capabilitiesFor('extended'),
};

const replies: Record<string, unknown> = {
  '/bff/session': session,
  '/bff/definitions': { items: [ticketsDefinition] },
  '/bff/views': { items: [] },
};

describe('startShell', () => {
  it('asks for the session, the definitions and the saved views at once', async () => {
    // Every answer is held until all three requests were sent: asked one after another, the
    // first would never be answered and this test would time out.
    const asked: string[] = [];
    let release = () => {};
    const allAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      asked.push(path);
      if (asked.length === 3) release();
      await allAsked;
      return jsonResponse(replies[path] ?? {});
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

    await expect(startShell(queryClient)).resolves.toMatchObject({ region: 'default' });
    expect(asked.sort()).toEqual(['/bff/definitions', '/bff/session', '/bff/views']);
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(definitionsQueryOptions().queryKey)).toBeDefined();
      expect(queryClient.getQueryData(savedViewsQueryOptions().queryKey)).toEqual([]);
    });
  });
});
