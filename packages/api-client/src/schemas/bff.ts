// The BFF's own interface (`/bff/*`), shared by the BFF (which answers with it) and the console
// (which parses with it): profiles and capabilities, the session, sign-in, and the workspace
// description the console reads instead of the upstream's definitions.
import { z } from 'zod';

import { SavedViewSchema } from './bff-saved-views.ts';
import { RecordTypeSchema } from './common.ts';
import { DefinitionSchema, RecordPagedListSchema } from './records.ts';

/**
 * What the upstream API of a region is: `extended` (our workspace API with its extensions) or
 * `hosted` (only what the hosted service's published OpenAPI promises).
 */
export const ProfileSchema = z.enum(['extended', 'hosted']);
export type Profile = z.infer<typeof ProfileSchema>;

/** What the console may rely on for the session's region (`GET /bff/session`). */
export const CapabilitiesSchema = z.object({
  profile: ProfileSchema,
  /** `sort` on record search; without it the console sorts loaded rows, labelled so. */
  sort: z.boolean(),
  /** `ETag` / `If-Match` on records; without it the editor re-reads and compares before saving. */
  etag: z.boolean(),
  /** Problem documents with per-field `errors`; without them 422s are shown as one message. */
  fieldErrors: z.boolean(),
  /** Paging parameters on related items. */
  relatedPaging: z.boolean(),
  /** `GET /elements/{alias}` lists records (in the published contract it is getElement). */
  elementLists: z.boolean(),
  /** The RSQL dialect filters are sent in. */
  rsqlDialect: ProfileSchema,
  /** Definitions come from the upstream (`upstream`) or from the BFF's workspace description. */
  definitions: z.enum(['upstream', 'workspace']),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/**
 * The capabilities of a profile.
 *
 * @example
 * capabilitiesFor('hosted').sort; // false
 */
export function capabilitiesFor(profile: Profile): Capabilities {
  const extended = profile === 'extended';
  return {
    profile,
    sort: extended,
    etag: extended,
    fieldErrors: extended,
    relatedPaging: extended,
    elementLists: extended,
    rsqlDialect: profile,
    definitions: extended ? 'upstream' : 'workspace',
  };
}

/** ADMIN and MEMBER as the upstream says; UNKNOWN when nobody could say (hosted, no mapping). */
export const SessionRoleSchema = z.enum(['ADMIN', 'MEMBER', 'UNKNOWN']);
export type SessionRole = z.infer<typeof SessionRoleSchema>;

/**
 * Where the signed-in person's name and role come from: `api` (`GET /v1/me`, verified), `operator`
 * (the BFF's identities file, trusted configuration), `self` (an email typed at sign-in: shown as
 * unverified and never used to decide anything), `none` (only the client id is known).
 */
export const IdentitySourceSchema = z.enum(['api', 'operator', 'self', 'none']);
export type IdentitySource = z.infer<typeof IdentitySourceSchema>;

export const SessionUserSchema = z.object({
  /** The person's user id in the workspace, when known (e.g. to stop self-deactivation). */
  id: z.string().optional(),
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  /** The API client id signed in with (not a secret): the name of last resort. */
  clientId: z.string(),
  role: SessionRoleSchema,
  identity: IdentitySourceSchema,
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** `GET /bff/session`. */
export const SessionSchema = z.object({
  user: SessionUserSchema,
  region: z.string(),
  expiresAt: z.string(),
  capabilities: CapabilitiesSchema,
});
export type Session = z.infer<typeof SessionSchema>;

/** `POST /bff/login` body. `email` is optional and unverified (hosted profile, no identities file). */
export const LoginInputSchema = z.object({
  clientId: z.string().trim().min(1, 'Enter your client ID').max(256),
  clientSecret: z.string().min(1, 'Enter your client secret').max(1024),
  region: z.string().min(1).max(32),
  email: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email('Enter an email address, or leave it empty').optional()),
});
export type LoginInput = z.input<typeof LoginInputSchema>;

/**
 * `POST /bff/login` body: the form's fields and `next`, the console page the sign-in leads to
 * (a path on the console's origin): where that is a records list, the BFF reads its first page
 * beside the person's identity and answers it with the session (`LoginResult.firstPage`).
 */
export type LoginRequest = LoginInput & { next?: string };

/**
 * The first page of a records list a sign-in brought along: the list as the BFF read it (the sort
 * dropped where the service cannot sort) and the record search's reply.
 */
export const SignInFirstPageSchema = z.object({
  request: z.object({
    recordType: RecordTypeSchema,
    alias: z.string(),
    filter: z.string().optional(),
    sort: z.string().optional(),
    first: z.number(),
  }),
  page: RecordPagedListSchema,
});
export type SignInFirstPage = z.infer<typeof SignInFirstPageSchema>;

/**
 * `POST /bff/login` reply: the session it started, as `GET /bff/session` would answer it, so the
 * console goes on without asking for it again; with the definitions (`GET /bff/definitions`'s
 * items) and the asked first page (the record search's reply) when they were read in time, and
 * the person's own saved views (`GET /bff/views`'s items: a records list looks for its default
 * view before its first screen). Each is absent when its read failed or was slow: the console
 * then asks for it itself.
 */
export const LoginResultSchema = SessionSchema.extend({
  definitions: z.array(DefinitionSchema).optional(),
  firstPage: SignInFirstPageSchema.optional(),
  views: z.array(SavedViewSchema).optional(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

/** `GET /bff/config`: what the sign-in form offers (no session needed). */
export const BffConfigSchema = z.object({
  regions: z
    .array(
      z.object({
        id: z.string(),
        label: z.string(),
        /** The region's profile when configured; absent while `auto` has not detected it yet. */
        profile: ProfileSchema.optional(),
        /** True when sign-in offers the optional email field (hosted, no identities file). */
        askEmail: z.boolean().optional(),
      }),
    )
    .min(1),
  maxUploadBytes: z.number().optional(),
});
export type BffConfig = z.infer<typeof BffConfigSchema>;

/** One definition of the region's workspace description and where it comes from. */
export const WorkspaceEntrySchema = z.object({
  definition: DefinitionSchema,
  /** `file`: the operator's BFF_WORKSPACE_FILE (read-only here); `store`: added on the setup page. */
  source: z.enum(['file', 'store']),
  updatedAt: z.string().optional(),
  updatedBy: z.string().optional(),
});
export type WorkspaceEntry = z.infer<typeof WorkspaceEntrySchema>;

/** `GET /bff/workspace`: the setup page's view of the description. */
export const WorkspaceSchema = z.object({
  /** May this session add, change and remove store definitions? */
  editable: z.boolean(),
  /** Why not, when not editable. */
  reason: z.string().optional(),
  items: z.array(WorkspaceEntrySchema),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** `POST /bff/workspace/sample` body. */
export const SampleInputSchema = z.object({
  recordType: z.enum(['apps', 'elements', 'tasks', 'transactions']),
  alias: z
    .string()
    .trim()
    .min(1, 'Enter the alias')
    .max(200)
    .regex(/^[^/?#\s]+$/, 'An alias has no slashes, spaces, ? or #'),
});
export type SampleInput = z.infer<typeof SampleInputSchema>;

/** `POST /bff/workspace/sample` reply: a proposed definition for the administrator to correct. */
export const SampleResultSchema = z.object({
  definition: DefinitionSchema,
  /** Records read to make the proposal. */
  sampled: z.number().int().nonnegative(),
  /** Records of that alias, when the service said. */
  total: z.number().int().nonnegative().optional(),
  /** Plain-language notes on guesses (e.g. "Status: 4 distinct values, proposed as a picklist"). */
  notes: z.array(z.string()),
});
export type SampleResult = z.infer<typeof SampleResultSchema>;
