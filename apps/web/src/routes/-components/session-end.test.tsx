// Comment drafts (sessionStorage, keyed by record, not by person) must not outlive the session:
// the whole console (real route tree) is rendered over a mocked BFF, a draft is left behind, and
// the session ends by sign-out, by a 401 from /api, and by /bff/session answering 401.
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';

import { draftKey, readDraft, saveDraft } from '@/features/comments/lib/drafts.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { jsonResponse } from '@/testing/render.tsx';

import { routeTree } from '../../routeTree.gen.ts';
import { installSessionEndHandling } from './session-end.ts';

const SESSION = {
  user: {
    id: '6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f11',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    clientId: 'client-1',
    role: 'ADMIN',
    identity: 'api',
  },
  region: 'default',
  expiresAt: '2030-01-01T00:00:00.000Z',
  capabilities: capabilitiesFor('extended'),
};

const RECORD = { recordType: 'apps', alias: 'support-tickets', id: 'SUP-7' };
const DRAFT = 'Customer said their password is hunter2';

const unauthorized = () =>
  jsonResponse({ type: 'about:blank', title: 'Unauthorized', status: 401 }, 401);

/** The BFF as the console sees it; `overrides` answer first (by path prefix). */
function mockBff(overrides: Record<string, () => Response> = {}) {
  let signedOut = false;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    for (const [prefix, answer] of Object.entries(overrides)) {
      if (url.pathname.startsWith(prefix)) return answer();
    }
    switch (url.pathname) {
      case '/bff/session':
        return signedOut ? unauthorized() : jsonResponse(SESSION);
      case '/bff/config':
        return jsonResponse({ regions: [{ id: 'default', label: 'Default' }], maxUploadBytes: 1 });
      case '/bff/definitions':
      case '/bff/views':
        return jsonResponse({ items: [] });
      case '/bff/logout':
        signedOut = true;
        return new Response(null, { status: 204 });
      default:
        return jsonResponse({ items: [] });
    }
  });
}

function renderConsole(path: string) {
  const queryClient = createQueryClient();
  const router = createRouter({
    routeTree,
    context: { queryClient },
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  // As main.tsx installs it.
  installSessionEndHandling(router, queryClient);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

const draftsInStorage = () =>
  Object.keys(sessionStorage).filter((key) => key.startsWith('wsc:comment-draft:'));

describe('comment drafts end with the session', () => {
  beforeEach(() => {
    sessionStorage.clear();
    saveDraft(draftKey(RECORD), DRAFT);
    expect(readDraft(draftKey(RECORD))).toBe(DRAFT);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are cleared at sign-out, before the next person can sign in in this tab', async () => {
    mockBff();
    const { user } = renderConsole('/');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in to Workspace Console' });
    expect(draftsInStorage()).toEqual([]);
    expect(readDraft(draftKey(RECORD))).toBe('');
  });

  it('are cleared when /api answers 401 (the session ended elsewhere)', async () => {
    mockBff({ '/api/': unauthorized });
    const { router } = renderConsole('/users');
    await screen.findByRole('heading', { name: 'Sign in to Workspace Console' });
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(draftsInStorage()).toEqual([]);
    expect(readDraft(draftKey(RECORD))).toBe('');
  });

  it('are cleared when the console opens on a session the BFF no longer knows (401)', async () => {
    mockBff({ '/bff/session': unauthorized });
    renderConsole('/');
    await screen.findByRole('heading', { name: 'Sign in to Workspace Console' });
    expect(draftsInStorage()).toEqual([]);
    expect(readDraft(draftKey(RECORD))).toBe('');
  });
});
