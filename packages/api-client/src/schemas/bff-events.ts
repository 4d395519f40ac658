// The BFF's live events (`GET /bff/events`, Server-Sent Events) and the presence body
// (`PUT /bff/presence`): who has which record open, and which records changed through the console.
// Shared by the BFF (which validates and sends with them) and the console (which parses with them).
// Events carry ids only, never field values: the console refetches with its own token.
import { z } from 'zod';

import { ViewAliasSchema } from './bff-saved-views.ts';
import { IdentitySourceSchema } from './bff.ts';
import { RecordTypeSchema } from './common.ts';
import { RecordChangeKindSchema } from './record-change-kind.ts';
import { ShownIdentitySchema } from './shown-identity.ts';

/** Event streams one session may hold open at once (one per tab; more is refused with 429). */
export const MAX_EVENT_STREAMS_PER_SESSION = 6;

/** A record handle as presence names it: what the record panel's URL holds. */
const RecordIdSchema = z
  .string()
  .min(1, 'A record id is required')
  .max(200)
  .refine(
    (value) => ![...value].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    'A record id has no control characters',
  );

/**
 * Who: the user's id (the BFF's owner id) and the name the console shows. Events carry the
 * `identity` kind next to it: a `self` name is an email typed at sign-in, marked `(unverified)`.
 */
export const EventActorSchema = z.object({ id: z.string(), name: z.string() });
export type EventActor = z.infer<typeof EventActorSchema>;
export { IdentitySourceSchema, ShownIdentitySchema };
export type { IdentitySource } from './bff.ts';

/** The record a connection shows, and whether its editor is open. */
export const PresenceRecordSchema = z.object({
  recordType: RecordTypeSchema,
  alias: ViewAliasSchema,
  recordId: RecordIdSchema,
  editing: z.boolean(),
});
export type PresenceRecord = z.infer<typeof PresenceRecordSchema>;

/** `PUT /bff/presence`: what this connection (a tab) has open now; `null`: nothing. */
export const PresenceInputSchema = z.object({
  connectionId: z.uuid('The id the `hello` event gave'),
  record: PresenceRecordSchema.nullable(),
});
export type PresenceInput = z.infer<typeof PresenceInputSchema>;

/** Someone else's open record, as an event carries it. */
export const PresenceEntrySchema = PresenceRecordSchema.extend({
  connectionId: z.string(),
  user: EventActorSchema,
  /** How verified `user.name` is (ADR 0026). */
  identity: ShownIdentitySchema,
  /** When they opened it (or opened the editor). */
  since: z.iso.datetime(),
});
export type PresenceEntry = z.infer<typeof PresenceEntrySchema>;

/** `event: hello`: the first event of a stream; its id is what `PUT /bff/presence` names. */
export const HelloEventSchema = z.object({
  connectionId: z.uuid(),
  /** A comment line arrives at least this often; a longer silence means the stream is dead. */
  heartbeatMs: z.number().int().positive(),
});
export type HelloEvent = z.infer<typeof HelloEventSchema>;

/**
 * `event: presence`: the whole picture first (`snapshot`), then what changed (`delta`). Entries are
 * other users' (never the stream's own user), of definitions the session can see.
 */
// `z.union`, not `z.discriminatedUnion`: the console's framework chunk (in its first load) holds
// every zod schema kind any chunk uses, and union is there already; discriminatedUnion would add
// ~1.5 KB gzip to the first load for two options (ADR 0022). The inferred type is the same.
export const PresenceEventSchema = z.union([
  z.object({ kind: z.literal('snapshot'), entries: z.array(PresenceEntrySchema) }),
  z.object({
    kind: z.literal('delta'),
    /** New or changed entries (by connectionId). */
    upserts: z.array(PresenceEntrySchema),
    /** Connection ids whose entry is gone. */
    removed: z.array(z.string()),
  }),
]);
export type PresenceEvent = z.infer<typeof PresenceEventSchema>;

export { RecordChangeKindSchema };
export type { RecordChangeKind } from './record-change-kind.ts';

/** `event: record-changed`: a write made through the console (by anyone, this user included). */
export const RecordChangedEventSchema = z.object({
  recordType: RecordTypeSchema,
  alias: z.string(),
  recordId: z.string(),
  kind: RecordChangeKindSchema,
  actor: EventActorSchema,
  /** How verified `actor.name` is (ADR 0026). */
  identity: ShownIdentitySchema,
  /** Where in the console: `editor`, `triage`, `bulk-run:<id>`, ... (a hint the client chose) */
  source: z.string(),
  at: z.iso.datetime(),
});
export type RecordChangedEvent = z.infer<typeof RecordChangedEventSchema>;

/** The event names of the stream. */
export const LIVE_EVENT_NAMES = ['hello', 'presence', 'record-changed'] as const;
