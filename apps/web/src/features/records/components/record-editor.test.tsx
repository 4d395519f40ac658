import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordReply } from '@wsc/api-client';
import { capabilitiesFor } from '@wsc/api-client';

import { configureApi } from '@/lib/api.ts';
import { CapabilitiesContext } from '@/lib/capabilities.ts';
import { recordKeys } from '@/queries/records.ts';
import { heldFetch } from '@/testing/held-fetch.ts';
import {
  hostedTicketsDefinition,
  jsonResponse,
  ONLY_PAGE,
  renderWithQuery,
  ticketsDefinition,
} from '@/testing/render.tsx';

import { RecordCreator, RecordEditor } from './record-editor.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  configureApi('extended');
});

const stored = {
  'Ticket ID': 'SUP-4',
  Title: 'Printer on fire',
  Status: 'New',
  'Created on': '2024-01-01T09:00:00.000Z',
};

function hosted(ui: React.ReactElement) {
  configureApi('hosted');
  return renderWithQuery(
    <CapabilitiesContext value={capabilitiesFor('hosted')}>
      <Suspense fallback="loading">{ui}</Suspense>
    </CapabilitiesContext>,
  );
}

describe('RecordEditor without an ETag (hosted)', () => {
  const decode = (header: string | null) =>
    JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')) as unknown;

  it('sends the change with the values opened; a 412 with `latest` opens the dialog, nothing read again', async () => {
    let reads = 0;
    const writes: { body: unknown; base: unknown }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') {
        writes.push({
          body: JSON.parse(String(init.body)),
          base: decode(new Headers(init.headers).get('x-base-values')),
        });
        return jsonResponse(
          {
            type: 'about:blank',
            title: 'Changed by someone else',
            status: 412,
            code: 'stale_record',
            detail: 'Status changed since you opened the record',
            latest: { ...stored, Status: 'Pending' },
          },
          412,
        );
      }
      reads += 1;
      return jsonResponse(stored);
    });
    const { user } = hosted(
      <RecordEditor definition={hostedTicketsDefinition} id="SUP-4" onClose={() => undefined} />,
    );
    expect(await screen.findByTestId('no-etag-note')).toHaveTextContent('no version check');
    // Read-only values of the description are shown, not offered for editing.
    expect(screen.getByText('Created on')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/^Status/), 'Open');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Someone else changed this record' });
    const row = within(within(dialog).getByTestId('conflict-fields')).getByRole('row', {
      name: /Status/,
    });
    expect(row).toHaveTextContent('NewPendingOpen');
    expect(writes).toEqual([{ body: { Status: 'Open' }, base: { Status: 'New' } }]);
    expect(reads).toBe(1);
    // My value stays in the form, unsaved.
    expect(screen.getByLabelText(/^Status/)).toHaveValue('Open');
  });

  it('saves in one PUT of the changes only, never its read-only fields', async () => {
    const writes: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') {
        writes.push(JSON.parse(String(init.body)));
        return new Response(null, { status: 200 });
      }
      return jsonResponse(stored);
    });
    const { user } = hosted(
      <RecordEditor definition={hostedTicketsDefinition} id="SUP-4" onClose={() => undefined} />,
    );
    await user.selectOptions(await screen.findByLabelText(/^Status/), 'Open');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(writes).toEqual([{ Status: 'Open' }]));
    await waitFor(() => expect(screen.queryByText('Saving…')).not.toBeInTheDocument());
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });
});

describe('RecordEditor saves optimistically', () => {
  const opened = { id: 'SUP-4', Title: 'Printer on fire', Status: 'New', Priority: '2' };

  function extended(ui: React.ReactElement) {
    return renderWithQuery(
      <CapabilitiesContext value={capabilitiesFor('extended')}>
        <Suspense fallback="loading">{ui}</Suspense>
      </CapabilitiesContext>,
    );
  }

  it('shows the saved value at once, marked Saving…; a 422 rolls the record back and keeps my value', async () => {
    const wire = heldFetch((request) =>
      request.method === 'GET' ? jsonResponse(opened, 200, { ETag: '"v1"' }) : undefined,
    );
    const { user, queryClient } = extended(
      <RecordEditor definition={ticketsDefinition} id="SUP-4" onClose={() => undefined} />,
    );
    const detail = () =>
      queryClient.getQueryData<RecordReply>(recordKeys.detail('apps', 'support-tickets', 'SUP-4'))
        ?.record;
    await user.selectOptions(await screen.findByLabelText(/^Status/), 'Open');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    // In the next frame: the record holds the new value, the field says it is being saved, the
    // form is not blocked and has nothing unsaved.
    expect(detail()?.Status).toBe('Open');
    const field = screen.getByLabelText(/^Status/).closest('[data-field]');
    expect(within(field as HTMLElement).getByRole('status')).toHaveTextContent('Saving…');
    expect(screen.getByLabelText(/^Status/)).toBeEnabled();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    await waitFor(() => expect(wire.requests).toHaveLength(1));

    wire.requests[0]?.respond(
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Unprocessable Content',
          status: 422,
          errors: [{ field: 'Status', message: 'Status needs an assignee' }],
        },
        422,
      ),
    );
    expect(await screen.findByText('Status needs an assignee')).toBeInTheDocument();
    expect(detail()?.Status).toBe('New');
    expect(screen.getByLabelText(/^Status/)).toHaveValue('Open');
    expect(screen.getByLabelText(/^Status/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(within(field as HTMLElement).getByRole('status')).toBeEmptyDOMElement();
  });

  it('tells the panel while it holds unsaved changes: an edit, a save, a refusal', async () => {
    const wire = heldFetch((request) =>
      request.method === 'GET' ? jsonResponse(opened, 200, { ETag: '"v1"' }) : undefined,
    );
    const dirty: boolean[] = [];
    const { user } = extended(
      <RecordEditor
        definition={ticketsDefinition}
        id="SUP-4"
        onClose={() => undefined}
        onDirtyChange={(value) => dirty.push(value)}
      />,
    );
    await user.selectOptions(await screen.findByLabelText(/^Status/), 'Open');
    expect(dirty.at(-1)).toBe(true);
    // Saved optimistically: nothing is left unsaved at once.
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(dirty.at(-1)).toBe(false);
    await waitFor(() => expect(wire.requests).toHaveLength(1));
    // Refused: the user's value is unsaved again.
    wire.requests[0]?.respond(
      jsonResponse({ type: 'about:blank', title: 'Unprocessable Content', status: 422 }, 422),
    );
    await waitFor(() => expect(dirty.at(-1)).toBe(true));
  });

  it('opens at once from the list row, then takes the record read behind it', async () => {
    const wire = heldFetch();
    const { queryClient } = extended(<div id="slot" />);
    queryClient.setQueryData(recordKeys.list('apps', 'support-tickets', {}), {
      pages: [
        {
          paging: ONLY_PAGE,
          total: 1,
          skipped: 0,
          items: [{ cursor: 'c0', data: opened }],
        },
      ],
      pageParams: [undefined],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RecordEditor definition={ticketsDefinition} id="SUP-4" onClose={() => undefined} />
      </QueryClientProvider>,
    );
    // Shown before the record's read answered, from the row, and said so.
    expect(screen.getByLabelText(/^Title/)).toHaveValue('Printer on fire');
    expect(screen.getByTestId('record-seeded')).toHaveTextContent('Shown from the list');
    await waitFor(() => expect(wire.requests).toHaveLength(1));
    expect(wire.requests[0]?.path).toBe('/api/v1/apps/support-tickets/SUP-4');
    wire.requests[0]?.respond(
      jsonResponse({ ...opened, Title: 'Printer on fire (updated)' }, 200, { ETag: '"v2"' }),
    );
    // An untouched field follows the record as read.
    await waitFor(() =>
      expect(screen.getByLabelText(/^Title/)).toHaveValue('Printer on fire (updated)'),
    );
    expect(screen.queryByTestId('record-seeded')).not.toBeInTheDocument();
  });
});

describe('RecordEditor with an ETag (extended)', () => {
  const opened = { id: 'SUP-4', Title: 'Printer on fire', Status: 'New', Priority: '2' };

  it('on 412 reads again and lists each changed field: opened, stored now, yours', async () => {
    const writes: { body: unknown; ifMatch: string | null }[] = [];
    let reads = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') {
        writes.push({
          body: JSON.parse(String(init.body)),
          ifMatch: new Headers(init.headers).get('if-match'),
        });
        return jsonResponse({ status: 412, title: 'Precondition Failed' }, 412);
      }
      reads += 1;
      return reads === 1
        ? jsonResponse(opened, 200, { ETag: '"v1"' })
        : jsonResponse({ ...opened, Status: 'Pending', Priority: '1' }, 200, { ETag: '"v2"' });
    });
    const { user } = renderWithQuery(
      <CapabilitiesContext value={capabilitiesFor('extended')}>
        <Suspense fallback="loading">
          <RecordEditor definition={ticketsDefinition} id="SUP-4" onClose={() => undefined} />
        </Suspense>
      </CapabilitiesContext>,
    );
    await user.selectOptions(await screen.findByLabelText(/^Status/), 'Open');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Someone else changed this record' });
    const table = within(dialog).getByTestId('conflict-fields');
    expect(within(table).getByRole('row', { name: /Status/ })).toHaveTextContent(
      'StatusNewPendingOpen',
    );
    expect(within(table).getByRole('row', { name: /Priority/ })).toHaveTextContent(
      'Priority21not changed by you',
    );
    expect(writes).toEqual([{ body: { Status: 'Open' }, ifMatch: '"v1"' }]);
    expect(reads).toBe(2);
    // "Reload latest version" keeps the edit on top of the stored record.
    await user.click(within(dialog).getByRole('button', { name: /Reload latest version/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText(/^Status/)).toHaveValue('Open');
    expect(screen.getByLabelText(/^Priority/)).toHaveValue('1');
  });
});

describe('RecordCreator against the hosted service', () => {
  it('treats a 201 without a handle as created: closes, and says so instead of failing', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 201 }));
    const onCreated = vi.fn();
    const onClose = vi.fn();
    const { user } = hosted(
      <RecordCreator
        definition={hostedTicketsDefinition}
        onCreated={onCreated}
        onClose={onClose}
      />,
    );
    await user.type(screen.getByLabelText(/^Title/), 'New printer');
    await user.selectOptions(screen.getByLabelText(/^Status/), 'New');
    await user.click(screen.getByRole('button', { name: 'Create record' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onCreated).not.toHaveBeenCalled();
  });
});
