import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Definition, Workspace, WorkspaceEntry } from '@wsc/api-client';

import { Toaster } from '@/components/ui/toast.tsx';
import { jsonResponse, renderWithRouter } from '@/testing/render.tsx';

import { WorkspaceSetup } from './workspace-setup.tsx';

const customers: WorkspaceEntry = {
  source: 'file',
  definition: {
    recordType: 'apps',
    alias: 'customers',
    name: 'Customers',
    handle: 'CUS',
    handleField: 'Customer no',
    titleField: 'Company',
    fields: [
      { name: 'Customer no', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Company', type: 'TEXT', required: true },
    ],
  },
};

const tickets: WorkspaceEntry = {
  source: 'store',
  updatedAt: '2025-03-02T10:00:00.000Z',
  updatedBy: 'ana@example.com',
  definition: {
    recordType: 'apps',
    alias: 'support-tickets',
    name: 'Support Tickets',
    handle: 'SUP',
    handleField: 'Ticket ID',
    titleField: 'Title',
    fields: [
      { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Title', type: 'TEXT', required: true },
      { name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open', 'Closed'] },
      // Corrected by the administrator: the sample proposes TEXT.
      { name: 'Priority', type: 'NUMBER', required: false },
    ],
  },
};

const chores: WorkspaceEntry = {
  source: 'store',
  updatedBy: 'ana@example.com',
  definition: {
    recordType: 'tasks',
    alias: 'chores',
    name: 'Chores',
    handle: '',
    fields: [{ name: 'What', type: 'TEXT', required: true }],
  },
};

const incidents: Definition = {
  recordType: 'apps',
  alias: 'incidents',
  name: 'Incidents',
  handle: 'INC',
  handleField: 'Key',
  titleField: 'Summary',
  fields: [
    { name: 'Key', type: 'HANDLE', required: true, readOnly: true },
    { name: 'Summary', type: 'TEXT', required: true },
    { name: 'Status', type: 'PICKLIST', required: false, values: ['New', 'Open'] },
    { name: 'Priority', type: 'TEXT', required: false },
  ],
};

const incidentsSample = {
  definition: incidents,
  sampled: 20,
  total: 134,
  notes: ['Status: 2 distinct values, proposed as a picklist', 'Key looks like a handle (INC-7)'],
};

interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/**
 * The BFF's workspace routes over an in-memory description, recording every request. `sample`
 * and `put` override the answers of sampling and saving.
 */
function mockBff({
  workspace,
  sample = () => jsonResponse(incidentsSample),
  put,
}: {
  workspace: Workspace;
  sample?: (body: unknown) => Response;
  put?: (body: Definition) => Response;
}) {
  let items = [...workspace.items];
  const calls: Call[] = [];
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = decodeURI(new URL(String(input), 'http://localhost').pathname);
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, headers: new Headers(init?.headers), body });
    if (path === '/bff/workspace' && method === 'GET') return jsonResponse({ ...workspace, items });
    if (path === '/bff/workspace/sample' && method === 'POST') return sample(body);
    const key = /^\/bff\/workspace\/definitions\/(\w+)\/(.+)$/.exec(path);
    if (key && method === 'PUT') {
      if (put) return put(body as Definition);
      const entry: WorkspaceEntry = {
        source: 'store',
        definition: body as Definition,
        updatedAt: '2025-04-01T09:00:00.000Z',
        updatedBy: 'admin@example.com',
      };
      items = [
        ...items.filter(
          (e) => `${e.definition.recordType}/${e.definition.alias}` !== `${key[1]}/${key[2]}`,
        ),
        entry,
      ];
      return jsonResponse(entry);
    }
    if (key && method === 'DELETE') {
      items = items.filter(
        (e) => `${e.definition.recordType}/${e.definition.alias}` !== `${key[1]}/${key[2]}`,
      );
      return new Response(null, { status: 204 });
    }
    return jsonResponse({ type: 'about:blank', title: 'Not Found', status: 404 }, 404);
  });
  const writes = () => calls.filter((call) => call.method !== 'GET');
  return { calls, writes, fetchMock };
}

function renderPage(
  definitions: 'upstream' | 'workspace' = 'workspace',
  onDescriptionChanged = vi.fn(),
) {
  const result = renderWithRouter(
    <>
      <WorkspaceSetup
        definitions={definitions}
        region="eu"
        onDescriptionChanged={onDescriptionChanged}
      />
      <Toaster />
    </>,
  );
  return { ...result, onDescriptionChanged };
}

const entry = (name: string) =>
  screen
    .getAllByTestId('workspace-entry')
    .find((article) => within(article).queryByRole('heading', { name }));

async function sampleIncidents(user: ReturnType<typeof renderPage>['user']) {
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Record type' }), 'apps');
  await user.type(screen.getByRole('textbox', { name: 'Alias' }), 'incidents');
  await user.click(screen.getByRole('button', { name: 'Sample records' }));
  return screen.findByRole('heading', { name: 'Add Incidents', level: 2 });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('WorkspaceSetup', () => {
  it("lists the description by record type, telling the operator's file from entries added here", async () => {
    mockBff({ workspace: { editable: true, items: [chores, tickets, customers] } });
    renderPage();
    const apps = await screen.findByRole('region', { name: /^Apps/ });
    const tasks = screen.getByRole('region', { name: /^Tasks/ });
    expect(
      within(apps)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Customers', 'Support Tickets']);
    expect(within(tasks).getByRole('heading', { level: 4 })).toHaveTextContent('Chores');

    const file = entry('Customers');
    if (!file) throw new Error('Customers is not listed');
    expect(file).toHaveTextContent("From the operator's file (read-only)");
    expect(file).toHaveTextContent('apps/customers');
    expect(file).toHaveTextContent('2 fields');
    expect(within(file).queryByRole('button')).not.toBeInTheDocument();

    const stored = entry('Support Tickets');
    if (!stored) throw new Error('Support Tickets is not listed');
    expect(stored).toHaveTextContent(/Added here by ana@example\.com on .*2025/);
    expect(stored).toHaveTextContent('Title fieldTitle');
    expect(stored).toHaveTextContent('Handle fieldTicket ID');
    expect(stored).toHaveTextContent('4 fields');
    for (const action of ['Edit', 'Re-sample', 'Remove']) {
      expect(
        within(stored).getByRole('button', { name: `${action} Support Tickets` }),
      ).toBeInTheDocument();
    }

    expect(entry('Chores')).toHaveTextContent(
      'Handle fieldnone: records can be listed but not opened',
    );
  });

  it('samples an alias and shows the proposal with the notes from sampling', async () => {
    const bff = mockBff({ workspace: { editable: true, items: [customers] } });
    const { user } = renderPage();
    const heading = await sampleIncidents(user);

    expect(bff.writes()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/bff/workspace/sample',
        body: { recordType: 'apps', alias: 'incidents' },
      }),
    ]);
    expect(bff.writes()[0]?.headers.get('X-CSRF')).toBe('1');
    expect(heading).toHaveFocus();
    expect(screen.getByText(/Proposed from 20 records of 134/)).toBeInTheDocument();
    const notes = screen.getByRole('region', { name: 'Notes from sampling' });
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(incidentsSample.notes);
    expect(screen.getByRole('textbox', { name: 'Record type name' })).toHaveValue('Incidents');
    expect(screen.getByRole('textbox', { name: 'Handle' })).toHaveValue('INC');
    expect(screen.getByRole('combobox', { name: 'Title field' })).toHaveDisplayValue('Summary');
    expect(screen.getByRole('combobox', { name: 'Handle field' })).toHaveDisplayValue('Key');
    const fields = screen.getByRole('list', { name: 'Fields' });
    const rows = within(fields).getAllByRole('group');
    expect(rows).toHaveLength(4);
    ['Key', 'Summary', 'Status', 'Priority'].forEach((name, i) =>
      expect(rows[i]).toHaveAccessibleName(`Field ${name}`),
    );
    const status = screen.getByRole('group', { name: 'Field Status' });
    expect(within(status).getByRole('list', { name: 'Values of Status' })).toHaveTextContent(
      /New.*Open/,
    );
  });

  it('saves the corrected definition with the CSRF header, then says so and refreshes', async () => {
    const bff = mockBff({ workspace: { editable: true, items: [customers] } });
    const { user, onDescriptionChanged } = renderPage();
    await sampleIncidents(user);

    const priority = screen.getByRole('group', { name: 'Field Priority' });
    await user.selectOptions(within(priority).getByRole('combobox', { name: 'Type' }), 'NUMBER');
    const status = screen.getByRole('group', { name: 'Field Status' });
    await user.type(
      within(status).getByRole('textbox', { name: 'Picklist values' }),
      'Escalated{Enter}',
    );
    await user.click(within(status).getByRole('button', { name: 'Remove value New' }));
    await user.click(within(status).getByRole('checkbox', { name: 'Required' }));
    await user.click(screen.getByRole('button', { name: 'Save Incidents' }));

    await screen.findByText(/Saved Incidents\./);
    const put = bff.writes().find((call) => call.method === 'PUT');
    expect(put?.path).toBe('/bff/workspace/definitions/apps/incidents');
    expect(put?.headers.get('X-CSRF')).toBe('1');
    expect(put?.headers.get('Content-Type')).toBe('application/json');
    expect(put?.body).toEqual({
      ...incidents,
      fields: [
        { name: 'Key', type: 'HANDLE', required: true, readOnly: true },
        { name: 'Summary', type: 'TEXT', required: true },
        { name: 'Status', type: 'PICKLIST', required: true, values: ['Open', 'Escalated'] },
        { name: 'Priority', type: 'NUMBER', required: false },
      ],
    });
    expect(onDescriptionChanged).toHaveBeenCalledTimes(1);
    // The list is read again and now has the new entry, with focus on its heading.
    expect(await screen.findByRole('heading', { name: 'Incidents', level: 4 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Described record types' })).toHaveFocus();
  });

  it("shows the BFF's 422 messages beside the fields they name", async () => {
    const bff = mockBff({
      workspace: { editable: true, items: [] },
      put: () =>
        jsonResponse(
          {
            type: 'urn:wsc:bff:validation',
            title: 'Unprocessable Content',
            status: 422,
            errors: [
              { field: 'fields.2.values', message: 'A value may be at most 40 characters' },
              { field: 'handle', message: 'INC is used by another record type' },
            ],
          },
          422,
        ),
    });
    const { user, onDescriptionChanged } = renderPage();
    await sampleIncidents(user);
    await user.click(screen.getByRole('button', { name: 'Save Incidents' }));

    const status = screen.getByRole('group', { name: 'Field Status' });
    const values = within(status).getByRole('textbox', { name: 'Picklist values' });
    await waitFor(() => expect(values).toHaveAttribute('aria-invalid', 'true'));
    expect(values).toHaveAccessibleDescription(/A value may be at most 40 characters/);
    expect(screen.getByRole('textbox', { name: 'Handle' })).toHaveAccessibleDescription(
      /INC is used by another record type/,
    );
    // Only the Status row is marked; the others are untouched.
    const priority = screen.getByRole('group', { name: 'Field Priority' });
    expect(within(priority).queryByText(/at most 40/)).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Some entries need attention');
    // The editor stays open with the draft; nothing was reported as saved.
    expect(screen.getByRole('heading', { name: 'Add Incidents' })).toBeInTheDocument();
    expect(onDescriptionChanged).not.toHaveBeenCalled();
    expect(bff.writes().filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('says plainly when sampling is refused (403) and opens no editor', async () => {
    mockBff({
      workspace: { editable: true, items: [] },
      sample: () =>
        jsonResponse(
          {
            type: 'urn:wsc:bff:forbidden',
            title: 'Forbidden',
            status: 403,
            detail: 'Your credential may not read apps/secret',
          },
          403,
        ),
    });
    const { user } = renderPage();
    await user.type(await screen.findByRole('textbox', { name: 'Alias' }), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sample records' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("You don't have access");
    expect(alert).toHaveTextContent('Your credential may not read apps/secret');
    expect(screen.queryByRole('heading', { name: /^Add secret/ })).not.toBeInTheDocument();
  });

  it('removes a definition only after confirmation, with DELETE', async () => {
    const bff = mockBff({ workspace: { editable: true, items: [customers, tickets] } });
    const { user, onDescriptionChanged } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Remove Support Tickets' }));

    const dialog = await screen.findByRole('dialog', { name: 'Remove Support Tickets?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(bff.writes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bff.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove Support Tickets' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bff.writes()).toEqual([
      expect.objectContaining({
        method: 'DELETE',
        path: '/bff/workspace/definitions/apps/support-tickets',
      }),
    ]);
    expect(bff.writes()[0]?.headers.get('X-CSRF')).toBe('1');
    await waitFor(() => expect(entry('Support Tickets')).toBeUndefined());
    expect(screen.getByText('Removed Support Tickets from the description.')).toBeInTheDocument();
    expect(onDescriptionChanged).toHaveBeenCalledTimes(1);
  });

  it('re-samples a stored definition keeping the corrections and adding what is new', async () => {
    const bff = mockBff({
      workspace: { editable: true, items: [tickets] },
      sample: () =>
        jsonResponse({
          definition: {
            ...tickets.definition,
            name: 'support-tickets',
            fields: [
              { name: 'Ticket ID', type: 'HANDLE', required: true, readOnly: true },
              { name: 'Title', type: 'TEXT', required: false },
              { name: 'Status', type: 'PICKLIST', required: false, values: ['New', 'Escalated'] },
              { name: 'Priority', type: 'TEXT', required: false },
              { name: 'Region', type: 'TEXT', required: false },
            ],
          },
          sampled: 50,
          notes: [],
        }),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Re-sample Support Tickets' }));
    await screen.findByRole('heading', { name: 'Review the new sample of Support Tickets' });

    expect(bff.writes()[0]?.body).toEqual({ recordType: 'apps', alias: 'support-tickets' });
    const changes = screen.getByTestId('resample-changes');
    expect(changes).toHaveTextContent('Status: new values from the sample added: Escalated');
    expect(changes).toHaveTextContent('New field from the sample: Region (Text)');
    const priority = screen.getByRole('group', { name: 'Field Priority' });
    expect(within(priority).getByRole('combobox', { name: 'Type' })).toHaveValue('NUMBER');
    expect(
      within(screen.getByRole('group', { name: 'Field Region' })).getByText('New in the sample'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Support Tickets' }));
    await screen.findByText(/Saved Support Tickets\./);
    const put = bff.writes().find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      ...tickets.definition,
      fields: [
        { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
        { name: 'Title', type: 'TEXT', required: true },
        {
          name: 'Status',
          type: 'PICKLIST',
          required: true,
          values: ['New', 'Open', 'Closed', 'Escalated'],
        },
        { name: 'Priority', type: 'NUMBER', required: false },
        { name: 'Region', type: 'TEXT', required: false },
      ],
    });
  });

  it('returns focus to the Edit button when the editor is cancelled', async () => {
    const bff = mockBff({ workspace: { editable: true, items: [tickets] } });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit Support Tickets' }));
    expect(await screen.findByRole('heading', { name: 'Edit Support Tickets' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Edit Support Tickets' })).toHaveFocus(),
    );
    expect(bff.writes()).toEqual([]);
  });

  it('shows why the description cannot be changed, and no controls to change it', async () => {
    mockBff({
      workspace: {
        editable: false,
        reason: 'Only administrators can change the workspace description.',
        items: [customers, tickets],
      },
    });
    renderPage();
    expect(await screen.findByTestId('workspace-read-only')).toHaveTextContent(
      'Only administrators can change the workspace description.',
    );
    expect(entry('Support Tickets')).toHaveTextContent('Added here by ana@example.com');
    // Toasts of earlier tests may linger in the shared toaster: only the page's controls count.
    const onPage = (role: string) =>
      screen.queryAllByRole(role).filter((el) => !el.closest('[data-slot="toaster"]'));
    expect(onPage('button')).toEqual([]);
    expect(onPage('textbox')).toEqual([]);
    expect(onPage('combobox')).toEqual([]);
  });

  it('in the extended profile says the API describes itself, links to the overview, asks nothing', async () => {
    const bff = mockBff({ workspace: { editable: true, items: [] } });
    renderPage('upstream');
    const link = await screen.findByRole('link', { name: 'Back to the overview' });
    expect(link).toHaveAttribute('href', '/');
    expect(screen.getByTestId('workspace-upstream')).toHaveTextContent(
      'the workspace API describes its own record types',
    );
    expect(screen.queryByRole('button', { name: 'Sample records' })).not.toBeInTheDocument();
    expect(bff.fetchMock).not.toHaveBeenCalled();
  });
});
