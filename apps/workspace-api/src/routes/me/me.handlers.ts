import type { Context } from 'hono';

import type { Me } from '@wsc/api-client/strict';

import type { AppEnv } from '../../lib/types.ts';

/** `GET /v1/me`: the principal as a User plus role. */
export function getMe(c: Context<AppEnv>) {
  const p = c.var.principal;
  const me: Me = {
    id: p.userId,
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
    jobTitle: p.jobTitle,
    status: p.status,
    role: p.role,
  };
  return c.json(me);
}
