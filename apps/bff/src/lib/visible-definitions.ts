// What a session may see, as the upstream decides it with the session's own token (ADR 0027).
// Extended: the upstream's `/v1/definitions`, which already lists only what the caller may see.
// Hosted: the region's workspace description names every record type, readable or not, so each
// definition is probed once with the session's token (`GET /{type}/{alias}?first=1`, elements
// `GET /elements/{alias}`): 403 or 404 hides it; any other failure hides it too, for now, and the
// answer is kept for a shorter time so that it is asked again soon (fail closed, never open).
// Presence, record-changed events, shared views, bulk runs and the history read from here.
import type { Definition } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import type { SessionRecord } from '../db/store.ts';
import type { Clock } from './clock.ts';
import type { BffConfig } from './config.ts';
import type { Region } from './region.ts';
import type { SessionApi } from './session-api.ts';
import type { WorkspaceStore } from './workspace-store.ts';
import { asRejection } from './authority.ts';
import { coalescedCache } from './coalesced-cache.ts';
import { sessionDefinitions } from './session-definitions.ts';
import { CredentialsRejectedError } from './upstream-auth.ts';
import { hostedDefinitions } from './workspace-store.ts';

/** How long a session's answer is kept. */
export const VISIBLE_TTL_MS = 60_000;

/** How long an answer with a failed probe in it is kept before the probes run again. */
export const VISIBLE_RETRY_MS = 10_000;

/** Probes of one session run at most this many at a time. */
const PROBE_CONCURRENCY = 4;

/** People whose answers are kept at most (the oldest go first). */
const MAX_PEOPLE = 10_000;

/** One session's answer; `ttlMs`: how long it may be trusted (shorter when a probe failed). */
export type Visible = {
  definitions: Definition[];
  keys: Set<string>;
  incomplete: boolean;
  ttlMs: number;
};

/**
 * The key of a definition in the visible sets: `recordType/alias`.
 *
 * @example
 * definitionKey('apps', 'support-tickets'); // 'apps/support-tickets'
 */
export const definitionKey = (recordType: string, alias: string) => `${recordType}/${alias}`;

export type Visibility = {
  /**
   * The definitions the session may see; `fresh` asks the upstream again whatever is kept.
   * Throws CredentialsRejectedError (the credential is refused) and, extended, what the
   * definitions call throws; turn those into an answer with `api.failure`.
   */
  definitions(session: SessionRecord, options?: { fresh?: boolean }): Promise<Definition[]>;
  /** The whole answer: definitions, their `recordType/alias` keys, and how long to trust it. */
  visible(session: SessionRecord, options?: { fresh?: boolean }): Promise<Visible>;
  /** Whether the session may see this definition. */
  sees(session: SessionRecord, recordType: string, alias: string): Promise<boolean>;
};

type Outcome = 'visible' | 'hidden' | 'failed';

/**
 * One published read with the session's token: 'visible', 'hidden' (403, 404), or 'failed'
 * (hidden for now). A refused credential throws CredentialsRejectedError. Without a definition,
 * a read anyone may try (`GET /users?first=1`): it only checks the credential.
 */
async function probe(
  api: SessionApi,
  session: SessionRecord,
  region: Region,
  definition: Definition | undefined,
): Promise<Outcome> {
  try {
    await api.run(session, region, 'hosted', async (client, signal) => {
      if (!definition) await client.listUsers({ first: 1, signal });
      else if (definition.recordType === 'elements') {
        await client.getElement(definition.alias, { signal });
      } else {
        await client.searchRecords(definition.recordType, definition.alias, { first: 1, signal });
      }
    });
    return 'visible';
  } catch (error) {
    if (error instanceof CredentialsRejectedError) throw error;
    if (!isApiError(error)) return 'failed';
    if (error.status === 401) throw asRejection(error);
    if (error.status === 403 || error.status === 404) return 'hidden';
    // A 2xx in a shape the client did not expect: the upstream let the session read.
    return error.status >= 200 && error.status < 300 ? 'visible' : 'failed';
  }
}

/** Probes every definition, a few at a time. */
async function probeAll(
  api: SessionApi,
  session: SessionRecord,
  region: Region,
  all: Definition[],
): Promise<Visible> {
  // Nothing to probe: the credential is still checked, so a refused one ends the session.
  if (all.length === 0) await probe(api, session, region, undefined);
  const outcomes: Outcome[] = [];
  for (let i = 0; i < all.length; i += PROBE_CONCURRENCY) {
    const batch = all.slice(i, i + PROBE_CONCURRENCY);
    outcomes.push(...(await Promise.all(batch.map((d) => probe(api, session, region, d)))));
  }
  const definitions = all.filter((_, index) => outcomes[index] === 'visible');
  return answer(definitions, outcomes.includes('failed'));
}

function answer(definitions: Definition[], incomplete: boolean): Visible {
  return {
    definitions,
    keys: new Set(definitions.map((d) => definitionKey(d.recordType, d.alias))),
    incomplete,
    ttlMs: incomplete ? VISIBLE_RETRY_MS : VISIBLE_TTL_MS,
  };
}

/**
 * The visibility service: one per app.
 *
 * @example
 * const visibility = createVisibility({ config, workspace, api, clock });
 * if (!(await visibility.sees(session, 'apps', 'refunds'))) throw notFound();
 */
export function createVisibility(deps: {
  config: BffConfig;
  workspace: WorkspaceStore;
  api: SessionApi;
  clock: Clock;
}): Visibility {
  const { config, workspace, api, clock } = deps;
  const cache = coalescedCache<Visible>({
    clock,
    ttlMs: VISIBLE_TTL_MS,
    maxEntries: MAX_PEOPLE,
    ttlOf: (visible) => visible.ttlMs,
  });

  const load = async (session: SessionRecord): Promise<Visible> => {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) return answer([], false);
    if (session.profile === 'hosted') {
      return probeAll(api, session, region, await hostedDefinitions(workspace, region));
    }
    // Shared by every waiter, so no one caller's abort signal may end it.
    let definitions: Definition[];
    try {
      definitions = await sessionDefinitions({ workspace, api }, session, region);
    } catch (error) {
      throw asRejection(error);
    }
    return answer(definitions, false);
  };

  // Kept per person (owner id and region): every session of one person may read the same, so a
  // person who signs in again and again costs one answer, not one per session.
  const visible = (session: SessionRecord, options: { fresh?: boolean } = {}) =>
    cache.get(
      [session.region, session.profile, session.ownerId].join('\u0000'),
      () => load(session),
      options.fresh ? { maxAgeMs: 0 } : {},
    );

  return {
    definitions: async (session, options) => (await visible(session, options)).definitions,
    visible,
    sees: async (session, recordType, alias) =>
      (await visible(session)).keys.has(definitionKey(recordType, alias)),
  };
}
