import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderWithQuery } from '@/testing/render.tsx';

import { AttachmentsPanel } from './attachments-panel.tsx';

const record = { recordType: 'apps', alias: 'support-tickets', id: 'SUP-3' } as const;
const link = {
  id: 'att-1',
  name: 'https://status.example.com/',
  description: 'Status page',
  mediaType: 'text/uri-list',
  size: 0,
  state: 'VALID',
  viewState: 'PRIVATE',
  contentUrl: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  url: 'https://status.example.com/',
  createdBy: 'ada@helpdesk.example',
};
const file = {
  ...link,
  id: 'att-2',
  name: 'report.pdf',
  description: null,
  mediaType: 'application/pdf',
  size: 1536,
  contentUrl: '/v1/apps/support-tickets/SUP-3/attachments/att-2/content',
  url: undefined,
  sha256: 'ab',
};

describe('AttachmentsPanel', () => {
  let requests: { method: string; url: string; body?: unknown }[];

  beforeEach(() => {
    requests = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const method = init?.method ?? 'GET';
      requests.push({ method, url: String(input), body: init?.body });
      if (method === 'POST')
        return jsonResponse({ url: 'https://example.com/x', id: 'att-3' }, 201);
      return jsonResponse([link, file]);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists files and links with type, size, date and uploader; links open safely', async () => {
    renderWithQuery(<AttachmentsPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Attachments' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[1]).toHaveTextContent('report.pdf');
    expect(rows[1]).toHaveTextContent('PDF');
    expect(rows[1]).toHaveTextContent('1.5 KB');
    expect(rows[1]).toHaveTextContent('ada@helpdesk.example');
    const anchor = within(list).getByRole('link', { name: /Status page/ });
    expect(anchor).toHaveAttribute('href', 'https://status.example.com/');
    expect(anchor).toHaveAttribute('rel', 'noopener noreferrer');
    expect(anchor).toHaveAttribute('target', '_blank');
    expect(within(list).getByRole('button', { name: 'Download report.pdf' })).toBeEnabled();
  });

  it('refuses non-http(s) links in the form without calling the API', async () => {
    const { user } = renderWithQuery(<AttachmentsPanel record={record} />);
    await screen.findByRole('list', { name: 'Attachments' });
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      '/relative',
      'ftp://x.example',
    ]) {
      await user.clear(screen.getByLabelText('Link URL'));
      await user.type(screen.getByLabelText('Link URL'), bad);
      await user.click(screen.getByRole('button', { name: 'Add link' }));
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Only absolute http:// or https:// links are allowed.',
      );
    }
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);

    await user.clear(screen.getByLabelText('Link URL'));
    await user.type(screen.getByLabelText('Link URL'), 'https://example.com/x');
    await user.type(screen.getByLabelText('Description'), 'Runbook');
    await user.click(screen.getByRole('button', { name: 'Add link' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST')).toEqual([
        {
          method: 'POST',
          url: '/api/v1/apps/support-tickets/SUP-3/attachments/url-links',
          body: JSON.stringify({ url: 'https://example.com/x', description: 'Runbook' }),
        },
      ]),
    );
  });

  it('reads the published shapes: links by media type, files without a content URL', async () => {
    vi.restoreAllMocks();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse([
        // A hosted link: no `url` key, the address in `name`, no contentUrl, no size or date.
        { id: 'l1', name: 'https://docs.example.com/', mediaType: 'text/uri-list' },
        // A file the service gives no content URL for, still processing (state in lower case).
        { id: 'f1', name: 'scan.png', mediaType: 'image/png', state: 'processing' },
      ]),
    );
    renderWithQuery(<AttachmentsPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Attachments' });
    const [linkRow, fileRow] = within(list).getAllByRole('listitem');
    const anchors = within(linkRow as HTMLElement).getAllByRole('link');
    expect(anchors.length).toBeGreaterThan(0);
    for (const anchor of anchors)
      expect(anchor).toHaveAttribute('href', 'https://docs.example.com/');
    expect(fileRow).toHaveTextContent('Processing');
    expect(within(fileRow as HTMLElement).getByTestId('not-downloadable')).toHaveTextContent(
      'No content to download',
    );
    expect(within(list).queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('never links a javascript: or data: url, name or contentUrl from a hostile server', async () => {
    vi.restoreAllMocks();
    const hostile = [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
    ];
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(
        hostile.flatMap((value, i) => [
          // Our API's shape: a link with `url`.
          { id: `u${i}`, name: `url ${i}`, mediaType: 'text/uri-list', url: value },
          // The hosted shape: the address in `name` or `contentUrl`.
          { id: `n${i}`, name: value, mediaType: 'text/uri-list' },
          { id: `c${i}`, name: `content ${i}`, mediaType: 'text/uri-list', contentUrl: value },
          // A file whose `url` is hostile: still a file, never a link.
          { id: `f${i}`, name: `file ${i}.pdf`, mediaType: 'application/pdf', url: value },
        ]),
      ),
    );
    renderWithQuery(<AttachmentsPanel record={record} />);
    const list = await screen.findByRole('list', { name: 'Attachments' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(hostile.length * 4);
    expect(within(list).queryAllByRole('link')).toEqual([]);
    for (const anchor of list.querySelectorAll('a')) {
      expect(anchor.getAttribute('href') ?? '').toMatch(/^https?:/);
    }
    // The hostile text is shown as text, never followed.
    expect(
      within(list).getAllByText(/javascript:alert\(document\.cookie\)/).length,
    ).toBeGreaterThan(0);
    // `url` and `name` rows say so; a `contentUrl` row may be downloaded through the API by its id.
    expect(within(list).getAllByText('Link without an address').length).toBe(hostile.length * 2);
  });
});
