import type { RenderOptions } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { Definition } from '@wsc/api-client';

/**
 * Renders UI with a fresh, retry-free query client and a user-event instance.
 *
 * @example
 * const { user } = renderWithQuery(<UserPicker value="" onChange={onChange} ariaLabel="Assignee" />);
 */
export function renderWithQuery(ui: React.ReactElement, options?: RenderOptions) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>,
    options,
  );
  return { ...result, user, queryClient };
}

/**
 * A JSON `Response` for mocked fetches.
 *
 * @example
 * vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse({ items: [] }));
 */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    },
  });
}

/** The demo support-tickets definition, as `GET /v1/definitions` describes it. */
export const ticketsDefinition: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'id',
  titleField: 'Title',
  fields: [
    { name: 'id', type: 'HANDLE', required: false, readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Description', type: 'TEXT', required: false },
    {
      name: 'Status',
      type: 'PICKLIST',
      required: true,
      values: ['New', 'Open', 'Pending', 'Resolved', 'Closed'],
    },
    {
      name: 'Severity',
      type: 'PICKLIST',
      required: false,
      values: ['Low', 'Medium', 'High', 'Critical'],
    },
    { name: 'Priority', type: 'NUMBER', required: false },
    { name: 'Assignee', type: 'USER_ID', required: false },
    { name: 'Due Date', type: 'DATE', required: false },
    { name: 'Resolved At', type: 'DATETIME', required: false },
    {
      name: 'Tags',
      type: 'MULTI_PICKLIST',
      required: false,
      values: ['urgent', 'vip', 'security'],
    },
    { name: 'Billable', type: 'BOOLEAN', required: false },
    { name: 'Created At', type: 'DATETIME', required: false, readOnly: true },
    { name: 'Created By', type: 'USER_ID', required: false, readOnly: true },
    { name: 'Updated At', type: 'DATETIME', required: false, readOnly: true },
    { name: 'Updated By', type: 'USER_ID', required: false, readOnly: true },
  ],
};

/**
 * The same definition as a workspace description for the hosted service describes it: the handle
 * and the audit dates are ordinary read-only fields under the tenant's names.
 */
export const hostedTicketsDefinition: Definition = {
  ...ticketsDefinition,
  handleField: 'Ticket ID',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
    ...ticketsDefinition.fields.filter((f) => !f.readOnly),
    { name: 'Created on', type: 'DATETIME', required: false, readOnly: true },
    { name: 'Updated on', type: 'DATETIME', required: false, readOnly: true },
  ],
};

/** A paged `/users` answer. */
/** The paging of a list's one and only page. */
export const ONLY_PAGE = {
  has_previous_page: false,
  start_cursor: null,
  end_cursor: null,
  has_next_page: false,
};

export function usersPage(users: { email: string; firstName: string; lastName: string }[]) {
  return {
    paging: ONLY_PAGE,
    total: users.length,
    items: users.map((u, i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      jobTitle: null,
      status: 'ACTIVE',
      ...u,
    })),
  };
}

/**
 * Like {@link renderWithQuery}, inside a memory router, for UI that renders `<Link>`s. The router
 * renders asynchronously: query with `findBy*` first.
 *
 * @example
 * const { user } = renderWithRouter(<GroupDetail group={group} canManage />);
 * await screen.findByRole('heading', { name: 'Billing' });
 */
export function renderWithRouter(ui: React.ReactElement) {
  const rootRoute = createRootRoute({ component: () => ui });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  return renderWithQuery(<RouterProvider router={router} />);
}
