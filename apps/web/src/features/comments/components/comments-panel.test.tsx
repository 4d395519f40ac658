import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { configureApi } from '@/lib/api.ts';
import { jsonResponse, renderWithQuery } from '@/testing/render.tsx';

import { readDraft } from '../lib/drafts.ts';
import { CommentsPanel } from './comments-panel.tsx';

const record = { recordType: 'apps', alias: 'support-tickets', id: 'SUP-7' } as const;
const author = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@helpdesk.example',
  firstName: 'Ada',
  lastName: 'Lovelace',
  jobTitle: null,
  status: 'ACTIVE',
};
const comment = (id: number, contents: string) => ({
  id: `00000000-0000-4000-8000-0000000001${String(id).padStart(2, '0')}`,
  contents,
  source: 'API',
  createdAt: `2024-05-0${id}T10:00:00.000Z`,
  createdBy: author,
});
const page = (items: unknown[]) => ({
  paging: { has_previous_page: false, start_cursor: null, end_cursor: null, has_next_page: false },
  total: items.length,
  items,
});

describe('CommentsPanel', () => {
  let thread: unknown[];
  let posts: { body: unknown }[];

  beforeEach(() => {
    // jsdom does not lay out, so it has no scrollIntoView; the panel calls it to show the latest.
    Element.prototype.scrollIntoView = vi.fn();
    sessionStorage.clear();
    thread = [comment(1, 'First'), comment(2, '<b>bold?</b>')];
    posts = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { contents: string };
        posts.push({ body });
        const created = comment(3, body.contents);
        thread = [...thread, created];
        return jsonResponse(created, 201);
      }
      expect(String(input)).toContain('/api/v1/apps/support-tickets/SUP-7/comment');
      return jsonResponse(page(thread));
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the thread oldest first with author and time, markup as text', async () => {
    renderWithQuery(<CommentsPanel record={record} />);
    const items = await screen.findAllByRole('listitem');
    expect(
      items.map((li) => li.querySelector('[data-testid="comment-text"]')?.textContent),
    ).toEqual(['First', '<b>bold?</b>']);
    expect(items[0]).toHaveTextContent('Ada Lovelace');
    expect(items[0]?.querySelector('time')).toHaveAttribute('datetime', '2024-05-01T10:00:00.000Z');
    expect(document.querySelector('b')).toBeNull();
  });

  it('posts with Ctrl+Enter, clears the composer and its saved draft', async () => {
    const { user } = renderWithQuery(<CommentsPanel record={record} />);
    const composer = screen.getByLabelText('Add a comment');
    await user.type(composer, 'Called the customer');
    expect(readDraft('apps/support-tickets/SUP-7')).toBe('Called the customer');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posts).toEqual([{ body: { contents: 'Called the customer' } }]));
    await screen.findByText('Called the customer', { selector: 'p' });
    expect(composer).toHaveValue('');
    expect(readDraft('apps/support-tickets/SUP-7')).toBe('');
  });

  it('does not send on plain Enter or when only whitespace', async () => {
    const { user } = renderWithQuery(<CommentsPanel record={record} />);
    const composer = screen.getByLabelText('Add a comment');
    await user.type(composer, '   {Control>}{Enter}{/Control}');
    await user.type(composer, 'line one{Enter}line two');
    expect(posts).toEqual([]);
    expect(composer).toHaveValue('   line one\nline two');
    expect(screen.getByRole('button', { name: 'Comment' })).toBeEnabled();
  });

  it('restores the draft kept for this record', async () => {
    sessionStorage.setItem('wsc:comment-draft:apps/support-tickets/SUP-7', 'Kept while away');
    renderWithQuery(<CommentsPanel record={record} />);
    expect(screen.getByLabelText('Add a comment')).toHaveValue('Kept while away');
    await screen.findAllByRole('listitem');
  });

  it('orders by time, and names a comment no person wrote by its source', async () => {
    vi.restoreAllMocks();
    Element.prototype.scrollIntoView = vi.fn();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse({
        items: [
          { ...comment(2, 'Second'), createdBy: undefined, source: 'WORKFLOW' },
          comment(1, 'First'),
        ],
      }),
    );
    renderWithQuery(<CommentsPanel record={record} />);
    const items = await screen.findAllByRole('listitem');
    expect(
      items.map((li) => li.querySelector('[data-testid="comment-text"]')?.textContent),
    ).toEqual(['First', 'Second']);
    expect(items[1]?.querySelector('article')).toHaveAccessibleName('Comment by Workflow');
  });

  it('posts text/plain to the hosted service and re-reads the thread', async () => {
    configureApi('hosted');
    vi.restoreAllMocks();
    Element.prototype.scrollIntoView = vi.fn();
    const sent: { type: string | null; body: unknown }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method === 'POST') {
        sent.push({ type: new Headers(init.headers).get('content-type'), body: init.body });
        return new Response('new-id', { status: 201, headers: { 'content-type': 'text/plain' } });
      }
      return jsonResponse(page(sent.length ? [comment(1, 'Hello')] : []));
    });
    try {
      // Another record than the other tests', whose drafts are kept per record.
      const { user } = renderWithQuery(<CommentsPanel record={{ ...record, id: 'SUP-8' }} />);
      const composer = screen.getByLabelText('Add a comment');
      await user.type(composer, 'Hello');
      await user.keyboard('{Control>}{Enter}{/Control}');
      expect(
        await screen.findByText('Hello', { selector: '[data-testid="comment-text"]' }),
      ).toBeVisible();
      expect(sent).toEqual([{ type: 'text/plain; charset=utf-8', body: 'Hello' }]);
    } finally {
      configureApi('extended');
    }
  });
});
