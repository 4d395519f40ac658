// `@wsc/api-client/strict`: the exact shapes our workspace API promises in its extended profile
// (DESIGN.md section 1). The API builds its OpenAPI document from these and its tests hold its own
// replies to them. Clients (the BFF, the console) parse with the tolerant schemas of the package's
// main entry instead, which accept every reply the hosted API's published contract allows.
import { z } from 'zod';

import { RecordTypeSchema } from '../schemas/common.ts';
import { FieldTypeSchema } from '../schemas/records.ts';

/** Cursor paging state; keys are snake_case as in the hosted API's `PagingState`. */
export const PagingSchema = z.object({
  has_previous_page: z.boolean(),
  start_cursor: z.string().nullable(),
  end_cursor: z.string().nullable(),
  has_next_page: z.boolean(),
});
export type Paging = z.infer<typeof PagingSchema>;

/**
 * The paged envelope every list endpoint returns.
 *
 * @example
 * const UserPagedListSchema = pagedListSchema(UserSchema);
 */
export function pagedListSchema<T extends z.ZodType>(item: T) {
  return z.object({
    paging: PagingSchema,
    total: z.number().int().nonnegative(),
    items: z.array(item),
  });
}

export const UserStatusSchema = z.enum(['ACTIVE', 'INACTIVE']);

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

export const RoleSchema = z.enum(['ADMIN', 'MEMBER']);
/** `GET /v1/me` (extension): the credential owner plus their role. */
export const MeSchema = UserSchema.extend({ role: RoleSchema });
export type Me = z.infer<typeof MeSchema>;

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

/** A record: a flat object of strings keyed by the definition's field names. */
export const RecordSchema = z.record(z.string(), z.string());

/** A record as returned by get/create/update: `id` and system fields are always present. */
export const StoredRecordSchema = RecordSchema.and(
  z.object({
    id: z.string(),
    'Created At': z.string(),
    'Created By': z.string(),
    'Updated At': z.string(),
    'Updated By': z.string(),
  }),
);
export type StoredRecord = z.infer<typeof StoredRecordSchema>;

export const RecordListItemSchema = z.object({ cursor: z.string(), data: RecordSchema });
export const RecordPagedListSchema = pagedListSchema(RecordListItemSchema);

export const FieldSchema = z.object({
  name: z.string(),
  type: FieldTypeSchema,
  required: z.boolean(),
  values: z.array(z.string()).optional(),
  /** True for the system fields (`id`, `Created At`, ...): never writable. */
  readOnly: z.boolean().optional(),
});

export const DefinitionSchema = z.object({
  recordType: RecordTypeSchema,
  alias: z.string(),
  name: z.string(),
  handle: z.string(),
  /** The field that holds the record's handle (`id` in our API). */
  handleField: z.string().optional(),
  /** The field shown as the record's title in lists and pickers. */
  titleField: z.string().optional(),
  fields: z.array(FieldSchema),
});
export type Definition = z.infer<typeof DefinitionSchema>;

/** `GET /v1/definitions` (extension). */
export const DefinitionListSchema = z.object({ items: z.array(DefinitionSchema) });

export const RecordTypeUpperSchema = z.enum(['APP', 'ELEMENT', 'TASK', 'TRANSACTION']);

export const RelatedItemSchema = z.object({
  id: z.string(),
  type: RecordTypeUpperSchema,
  alias: z.string(),
  cursor: z.string(),
});
export const RelatedPagedListSchema = pagedListSchema(RelatedItemSchema);

export const AttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mediaType: z.string(),
  size: z.number().int().nonnegative(),
  state: z.enum(['VALID', 'PROCESSING', 'ERROR']),
  viewState: z.enum(['PRIVATE', 'PUBLIC']),
  contentUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Extension: hex sha256 of the stored bytes (absent for links). */
  sha256: z.string().optional(),
  /** Extension: the target of a URL link (`mediaType: text/uri-list`). */
  url: z.string().optional(),
  /** Extension: email of the uploader. */
  createdBy: z.string().optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;
/** The attachment list is a bare array, as in the hosted API. */
export const AttachmentListSchema = z.array(AttachmentSchema);

/** `POST .../attachments/url-links` answers 201 echoing the link. */
export const UrlLinkSchema = z.object({
  url: z.string(),
  description: z.string().optional(),
  id: z.string().optional(),
});

/** A watcher's target: a user, or (published contract) a group, which has only `id` and `name`. */
export const WatcherTargetSchema = z.discriminatedUnion('type', [
  z.object({
    id: z.uuid(),
    type: z.literal('User'),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
  }),
  z.object({ id: z.uuid(), type: z.literal('Group'), name: z.string() }),
]);
export const WatcherSchema = z.object({ id: z.uuid(), target: WatcherTargetSchema });
export const WatcherPagedListSchema = pagedListSchema(WatcherSchema);

export const CommentSchema = z.object({
  id: z.uuid(),
  contents: z.string(),
  source: z.string(),
  createdAt: z.string(),
  createdBy: UserSchema,
});
export type Comment = z.infer<typeof CommentSchema>;
export const CommentPagedListSchema = pagedListSchema(CommentSchema);

export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().positive(),
});

/**
 * A client credential as `POST /v1/credentials/{clientId}/revoke` (extension) answers it: never
 * the secret, which exists only at creation.
 */
export const CredentialSchema = z.object({
  clientId: z.string(),
  userId: z.uuid(),
  label: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type Credential = z.infer<typeof CredentialSchema>;

export type UserPagedList = z.infer<typeof UserPagedListSchema>;
export type GroupPagedList = z.infer<typeof GroupPagedListSchema>;
export type RecordPagedList = z.infer<typeof RecordPagedListSchema>;
export type Field = z.infer<typeof FieldSchema>;
export type DefinitionList = z.infer<typeof DefinitionListSchema>;
export type RecordTypeUpper = z.infer<typeof RecordTypeUpperSchema>;
export type RelatedItem = z.infer<typeof RelatedItemSchema>;
export type RelatedPagedList = z.infer<typeof RelatedPagedListSchema>;
export type UrlLink = z.infer<typeof UrlLinkSchema>;
export type Watcher = z.infer<typeof WatcherSchema>;
export type WatcherPagedList = z.infer<typeof WatcherPagedListSchema>;
export type CommentPagedList = z.infer<typeof CommentPagedListSchema>;
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
