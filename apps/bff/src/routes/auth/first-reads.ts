// What the console reads first once signed in, read by the sign-in itself beside the person's
// identity (issue 27 item 4): the definitions and the first page of the list the person was sent
// to sign in from. Both need only the fresh token, so they travel in the same round trip as `/me`
// (or the hosted look-up), and the sign-in's answer carries them: the first rows cost no round
// trip after it. A read that fails or is slow is left out; the console then asks for it itself.
import type { Definition, Profile, SignInFirstPage } from '@wsc/api-client';
import { capabilitiesFor, createApiClient } from '@wsc/api-client';

import type { BffConfig } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Region } from '../../lib/region.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import type { RecordCopies } from '../proxy/record-copies.ts';
import type { FirstPageRequest } from './first-page-of.ts';
import { definitionsFor } from '../../lib/session-definitions.ts';
import { keepListCopies } from '../proxy/record-copy-fill.ts';

/** What the sign-in read beside the identity; either part is absent when it could not be read. */
export type FirstReads = {
  definitions?: Definition[];
  firstPage?: SignInFirstPage;
};

export type FirstReadsDeps = {
  config: BffConfig;
  fetch: typeof fetch;
  logger: Logger;
  workspace: WorkspaceStore;
};

/**
 * One of a sign-in's reads: its answer, or undefined (logged) when it failed: the sign-in goes on
 * without it and the console reads it itself.
 *
 * @example
 * const views = await optionalRead(deps, 'saved views', requestId, () => ownViews(owner));
 */
export async function optionalRead<T>(
  deps: { logger: Logger },
  what: string,
  requestId: string,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    deps.logger.info('sign-in read left to the console', {
      requestId,
      read: what,
      reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
    });
    return undefined;
  }
}

/**
 * Reads the definitions and, when asked, the first page, with `token` as a session of `profile`
 * would (the same requests the console would send through the proxy). Never rejects.
 *
 * @example
 * const reads = readFirst(deps, { region, profile: 'extended', token, firstPage, requestId, signal });
 */
export async function readFirst(
  deps: FirstReadsDeps,
  input: {
    region: Region;
    profile: Profile;
    token: string;
    firstPage: FirstPageRequest | undefined;
    requestId: string;
    signal: AbortSignal;
  },
): Promise<FirstReads> {
  const { region, profile, token, firstPage, requestId } = input;
  const signal = AbortSignal.any([
    input.signal,
    AbortSignal.timeout(deps.config.upstreamTimeoutMs),
  ]);
  const client = createApiClient({
    baseUrl: region.apiUrl,
    profile,
    fetch: deps.fetch,
    getToken: () => Promise.resolve(token),
    // A failure is the console's to meet again with its own request, not a reason to wait here.
    retry: false,
  });
  const capabilities = capabilitiesFor(profile);
  // The list as it is asked of the service: no sort where it cannot sort.
  const list =
    firstPage && (firstPage.recordType !== 'elements' || capabilities.elementLists)
      ? { ...firstPage, sort: (capabilities.sort && firstPage.sort) || undefined }
      : undefined;
  const [definitions, page] = await Promise.all([
    optionalRead(deps, 'definitions', requestId, () =>
      definitionsFor(profile, deps.workspace, region, () => client.listDefinitions({ signal })),
    ),
    list
      ? optionalRead(deps, 'first page', requestId, () =>
          client.searchRecords(list.recordType, list.alias, {
            filter: list.filter || undefined,
            sort: list.sort,
            first: list.first,
            signal,
          }),
        )
      : undefined,
  ]);
  return {
    ...(definitions ? { definitions } : {}),
    ...(list && page ? { firstPage: { request: withoutUndefined(list), page } } : {}),
  };
}

/** The list without its absent parts (a JSON reply has no `undefined`). */
function withoutUndefined(list: FirstPageRequest): FirstPageRequest {
  return Object.fromEntries(
    Object.entries(list).filter(([, value]) => value !== undefined),
  ) as FirstPageRequest;
}

/**
 * Keeps the first page's records as the session's copies, as the proxy keeps those of a list it
 * passes on (ADR 0029): a save right after sign-in needs no read of its own for the history.
 *
 * @example
 * keepFirstPage(copies, record.idHash, reads, config.recordCopies.maxListBytes);
 */
export function keepFirstPage(
  copies: RecordCopies,
  session: string,
  reads: FirstReads,
  maxListBytes: number,
): void {
  const { firstPage, definitions } = reads;
  if (!firstPage) return;
  const { request, page } = firstPage;
  const records = page.items.map((item) => item.data);
  // As the proxy keeps a list it passed on: not past its size for a list, whole.
  const bytes = Buffer.byteLength(JSON.stringify(records));
  if (bytes > maxListBytes) return;
  const field = definitions?.find(
    (d) => d.recordType === request.recordType && d.alias === request.alias,
  )?.handleField;
  const target = { recordType: request.recordType, alias: request.alias };
  keepListCopies(copies, session, target, records, bytes, field);
}
