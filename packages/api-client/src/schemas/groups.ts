import { z } from 'zod';

import { flag, pagedListSchema, requiredId, text } from './common.ts';

export const GroupDomainSchema = z.looseObject({
  id: z.string().optional(),
  domain: z.string().optional(),
});

/** A group as any server may send it; only `id` is needed. Missing flags read as false. */
export const GroupSchema = z.object({
  id: requiredId(),
  name: text(),
  assignable: flag(),
  watchable: flag(),
  mentionable: flag(),
  managed: flag(),
  dynamic: flag(),
  domains: z
    .array(GroupDomainSchema)
    .nullish()
    .transform((domains) => domains ?? []),
});
export type Group = z.output<typeof GroupSchema>;

export const GroupPagedListSchema = pagedListSchema(GroupSchema);
export type GroupPagedList = z.output<typeof GroupPagedListSchema>;

export const GroupUserIdsInputSchema = z.object({
  userIds: z.array(z.uuid()).min(1).max(1000),
});
export type GroupUserIdsInput = z.infer<typeof GroupUserIdsInputSchema>;
