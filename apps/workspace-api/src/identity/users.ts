// Row <-> wire shape for users, shared by users, me, groups members, watchers and comments.
import type { User } from '@wsc/api-client/strict';

import type { UserRow } from '../db/schema.ts';

/**
 * The API's User shape for a users row.
 *
 * @example
 * UserSchema.parse(toUser(row));
 */
export function toUser(
  row: Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name' | 'job_title' | 'status'>,
): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    jobTitle: row.job_title,
    status: row.status,
  };
}

/** Columns toUser needs, for `select(USER_COLUMNS)`. */
export const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'job_title',
  'status',
] as const;
