import { z } from 'zod';

import { pagedListSchema } from './common.ts';
import { UserSchema } from './users.ts';

export const WatcherTargetSchema = z.object({
  id: z.uuid(),
  type: z.literal('User'),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

export const WatcherSchema = z.object({
  id: z.uuid(),
  target: WatcherTargetSchema,
});
export type Watcher = z.infer<typeof WatcherSchema>;

export const WatcherPagedListSchema = pagedListSchema(WatcherSchema);
export type WatcherPagedList = z.infer<typeof WatcherPagedListSchema>;

export const WatcherListInputSchema = z.object({
  users: z.array(z.string().min(1)).min(1).max(100),
});
export type WatcherListInput = z.infer<typeof WatcherListInputSchema>;

export const COMMENT_MAX_LENGTH = 10_000;

export const CommentSchema = z.object({
  id: z.uuid(),
  contents: z.string(),
  source: z.string(),
  createdAt: z.string(),
  createdBy: UserSchema,
});
export type Comment = z.infer<typeof CommentSchema>;

export const CommentPagedListSchema = pagedListSchema(CommentSchema);
export type CommentPagedList = z.infer<typeof CommentPagedListSchema>;

export const CommentInputSchema = z.object({
  contents: z.string().min(1).max(COMMENT_MAX_LENGTH),
});
export type CommentInput = z.infer<typeof CommentInputSchema>;
