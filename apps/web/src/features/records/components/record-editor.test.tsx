import { screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';

import { configureApi } from '@/lib/api.ts';
import { CapabilitiesContext } from '@/lib/capabilities.ts';
import { hostedTicketsDefinition, jsonResponse, renderWithQuery } from '@/testing/render.tsx';

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
