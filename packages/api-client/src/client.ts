// The typed client of the Records and Workspace API: one request core (client/transport.ts) and
// one module of methods per resource, composed into a single object.
import type { ApiClientOptions } from './client/transport.ts';
import { activityMethods } from './client/activity.ts';
import { attachmentMethods } from './client/attachments.ts';
import { directoryMethods } from './client/directory.ts';
import { recordMethods } from './client/records.ts';
import { createTransport } from './client/transport.ts';

/**
 * Creates the typed client of the Records and Workspace API. Every reply is parsed with the zod
 * contract; every failure is an {@link ApiError}. Idempotent requests are retried on 429/502/503/504.
 *
 * @example
 * // Server side (BFF, tests, benches): talks to the API with a bearer token.
 * const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010/v1', getToken: async () => token });
 * const page = await api.searchRecords('apps', 'support', { filter: 'Status==Open', first: 50 });
 *
 * @example
 * // Browser: through the BFF proxy, which holds the token; the CSRF header is required.
 * const api = createApiClient({ baseUrl: '/api/v1', headers: { 'X-CSRF': '1' } });
 */
export function createApiClient(options: ApiClientOptions) {
  const transport = createTransport(options);
  return {
    ...recordMethods(transport),
    ...attachmentMethods(transport),
    ...activityMethods(transport),
    ...directoryMethods(transport),
    /** The profile this client was made for. */
    profile: transport.profile,
  };
}

/** The client {@link createApiClient} returns. */
export type ApiClient = ReturnType<typeof createApiClient>;
