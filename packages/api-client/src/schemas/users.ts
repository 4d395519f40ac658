import { z } from 'zod';

import { pagedListSchema } from './common.ts';

export const UserStatusSchema = z.enum(['ACTIVE', 'INACTIVE']);
export type UserStatus = z.infer<typeof UserStatusSchema>;

export const UserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  jobTitle: z.string().nullable().optional(),
  status: UserStatusSchema,
});
export type User = z.infer<typeof UserSchema>;

export const UserPagedListSchema = pagedListSchema(UserSchema);
export type UserPagedList = z.infer<typeof UserPagedListSchema>;

export const CreateUserInputSchema = z.object({
  email: z.email().max(254),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  jobTitle: z.string().trim().max(200).optional(),
  neverNotify: z.boolean().optional(),
});
export type CreateUserInput = z.infer<typeof CreateUserInputSchema>;

export const RoleSchema = z.enum(['ADMIN', 'MEMBER']);
export type Role = z.infer<typeof RoleSchema>;

/** `GET /v1/me` (extension): the credential owner plus their role. */
export const MeSchema = UserSchema.extend({ role: RoleSchema });
export type Me = z.infer<typeof MeSchema>;
