import { z } from 'zod';

import { optionalText, pagedListSchema, requiredId, text } from './common.ts';
import { UserRefSchema } from './users.ts';

/**
 * Who watches a record: a user (names and email) or, in the published contract, a group (`name`
 * only). The type is normalised to `User`, `Group` or the text sent; a target without a type is a
 * user when it has an email, else `''` (shown as an unknown watcher).
 */
export const WatcherTargetSchema = z
  .object({
    id: optionalText(),
    type: optionalText(),
    firstName: text(),
    lastName: text(),
    email: text(),
    name: text(),
  })
  .nullish()
  .transform((value) => {
    const target = value ?? {
      id: undefined,
      type: undefined,
      firstName: '',
      lastName: '',
      email: '',
      name: '',
    };
    const raw = target.type?.toLowerCase();
    let type = target.type ?? '';
    if (raw === 'group') type = 'Group';
    else if (raw === 'user' || (!raw && target.email)) type = 'User';
    return { ...target, id: target.id, type };
  });
export type WatcherTarget = z.output<typeof WatcherTargetSchema>;

export const WatcherSchema = z.object({
  id: optionalText(),
  target: WatcherTargetSchema,
});
export type Watcher = z.output<typeof WatcherSchema>;

export const WatcherPagedListSchema = pagedListSchema(WatcherSchema);
export type WatcherPagedList = z.output<typeof WatcherPagedListSchema>;

export const WatcherListInputSchema = z.object({
  users: z.array(z.string().min(1)).min(1).max(100),
});
export type WatcherListInput = z.infer<typeof WatcherListInputSchema>;

export const COMMENT_MAX_LENGTH = 10_000;

/** A comment; `createdBy` is absent for comments no person wrote (workflows). */
export const CommentSchema = z.object({
  id: requiredId(),
  contents: text(),
  source: text(),
  createdAt: optionalText(),
  createdBy: UserRefSchema.nullish().transform((user) => user ?? undefined),
});
export type Comment = z.output<typeof CommentSchema>;

export const CommentPagedListSchema = pagedListSchema(CommentSchema);
export type CommentPagedList = z.output<typeof CommentPagedListSchema>;

export const CommentInputSchema = z.object({
  contents: z.string().min(1).max(COMMENT_MAX_LENGTH),
});
export type CommentInput = z.infer<typeof CommentInputSchema>;
