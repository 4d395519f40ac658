import { z } from 'zod';

import { enumText, optionalText, pagedListSchema, requiredId, text } from './common.ts';

export const UserStatusSchema = z.enum(['ACTIVE', 'INACTIVE']);
export type UserStatus = z.infer<typeof UserStatusSchema>;

/** A user as any server may send it: only `id` is needed (pages link to it, groups add by it). */
export const UserSchema = z.object({
  id: requiredId(),
  email: text(),
  firstName: text(),
  lastName: text(),
  jobTitle: optionalText(),
  /** `ACTIVE` / `INACTIVE` as published; `undefined` when the reply has none. */
  status: enumText(),
});
export type User = z.output<typeof UserSchema>;

/** Someone named inside another object (a comment's author): nothing is required. */
export const UserRefSchema = z.object({
  id: optionalText(),
  email: text(),
  firstName: text(),
  lastName: text(),
});
export type UserRef = z.output<typeof UserRefSchema>;

export const UserPagedListSchema = pagedListSchema(UserSchema);
export type UserPagedList = z.output<typeof UserPagedListSchema>;

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

/** `GET /v1/me` (extension of our API): the credential owner plus their role. */
export const MeSchema = UserSchema.extend({ role: RoleSchema });
export type Me = z.output<typeof MeSchema>;
