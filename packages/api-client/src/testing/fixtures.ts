// Test-only: valid wire objects for each schema (shapes per DESIGN.md section 1).
import type { Paging } from '../schemas/common.ts';

export const USER_ID = '550e8400-e29b-41d4-a716-446655440000';
export const GROUP_ID = '550e8400-e29b-41d4-a716-446655440001';

export const paging: Paging = {
  has_previous_page: false,
  start_cursor: 'c0',
  end_cursor: 'c1',
  has_next_page: true,
};

export function paged<T>(items: T[]) {
  return { paging, total: items.length, items };
}

export const user = {
  id: USER_ID,
  email: 'jane@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  jobTitle: 'Engineer',
  status: 'ACTIVE',
};

export const me = { ...user, role: 'ADMIN' };

export const group = {
  id: GROUP_ID,
  name: 'Support',
  assignable: true,
  watchable: true,
  mentionable: true,
  managed: false,
  dynamic: false,
  domains: [],
};

export const record = {
  id: 'SUP-42',
  Title: 'Printer on fire',
  'Created At': '2024-01-01T00:00:00.000Z',
  'Created By': 'jane@example.com',
  'Updated At': '2024-01-01T00:00:00.000Z',
  'Updated By': 'jane@example.com',
};

export const attachment = {
  id: 'att-1',
  name: 'log.txt',
  description: null,
  mediaType: 'text/plain',
  size: 3,
  state: 'VALID',
  viewState: 'PRIVATE',
  contentUrl: '/v1/apps/support/SUP-42/attachments/att-1/content',
  createdAt: '2024-01-01T00:00:00.000Z',
};

export const watcher = {
  id: '550e8400-e29b-41d4-a716-446655440002',
  target: {
    id: USER_ID,
    type: 'User',
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
  },
};

export const comment = {
  id: '550e8400-e29b-41d4-a716-446655440003',
  contents: 'Looking into it',
  source: 'API',
  createdAt: '2024-01-01T00:00:00.000Z',
  createdBy: user,
};

/** `comment` as the tolerant schema reads it: the author is a reference (no status or job title). */
export const parsedComment = {
  ...comment,
  createdBy: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName },
};

export const related = { id: 'TSK-4', type: 'TASK', alias: 'tasks', cursor: 'r0' };

export const definitions = {
  items: [
    {
      recordType: 'apps',
      alias: 'support',
      name: 'Support',
      handle: 'SUP',
      fields: [{ name: 'Title', type: 'TEXT', required: true }],
    },
  ],
};
