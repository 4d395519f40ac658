import { z } from 'zod';

import { pagedListSchema } from './common.ts';

export const GroupDomainSchema = z.looseObject({
  id: z.string().optional(),
  domain: z.string().optional(),
});

export const GroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  assignable: z.boolean(),
  watchable: z.boolean(),
  mentionable: z.boolean(),
  managed: z.boolean(),
  dynamic: z.boolean(),
  domains: z.array(GroupDomainSchema),
});
export type Group = z.infer<typeof GroupSchema>;

export const GroupPagedListSchema = pagedListSchema(GroupSchema);
export type GroupPagedList = z.infer<typeof GroupPagedListSchema>;

export const GroupUserIdsInputSchema = z.object({
  userIds: z.array(z.uuid()).min(1).max(1000),
});
export type GroupUserIdsInput = z.infer<typeof GroupUserIdsInputSchema>;
