import type { CreateUserInput, User } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/**
 * `POST /users` -> 201 User; a duplicate email is an ApiError 422 naming `email`.
 *
 * @example
 * const user = await createUser({ email, firstName, lastName });
 */
export function createUser(input: CreateUserInput): Promise<User> {
  return api.createUser(input);
}

/**
 * `POST /users/{id}/deactivate` -> the user, now INACTIVE (idempotent).
 *
 * @example
 * await deactivateUser(user.id);
 */
export function deactivateUser(userId: string): Promise<User> {
  return api.deactivateUser(userId);
}
