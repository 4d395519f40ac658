import { screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';

import { configureApi } from '@/lib/api.ts';
import { CapabilitiesContext } from '@/lib/capabilities.ts';
import {
  hostedTicketsDefinition,
  jsonResponse,
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
  it('re-reads before saving and opens the conflict dialog naming the field changed meanwhile', async () => {
    let reads = 0;
    const writes: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') {
        writes.push(JSON.parse(String(init.body)));
        return new Response(null, { status: 200 });
      }
      reads += 1;
      // The second read (just before saving) finds someone else's change to Status.
      return jsonResponse(reads === 1 ? stored : { ...stored, Status: 'Pending' });
    });
    const { user } = hosted(
      <RecordEditor definition={hostedTicketsDefinition} id="SUP-4" onClose={() => undefined} />,
    );
    expect(await screen.findByTestId('no-etag-note')).toHaveTextContent('re-reads the record');
    // Read-only values of the description are shown, not offered for editing.
    expect(screen.getByText('Created on')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/^Status/), 'Open');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Someone else changed this record' });
    const row = within(within(dialog).getByTestId('conflict-fields')).getByRole('row', {
      name: /Status/,
    });
    expect(row).toHaveTextContent('NewPendingOpen');
    expect(writes).toEqual([]);
  });

  it('saves the whole record when nothing moved, never its read-only fields', async () => {
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
    await waitFor(() => expect(writes).toEqual([{ Title: 'Printer on fire', Status: 'Open' }]));
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
