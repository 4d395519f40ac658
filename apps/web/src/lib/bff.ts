import { createBffClient } from '@wsc/api-client';

/**
 * The console's client of the BFF's own `/bff/*` routes (same origin, `X-CSRF: 1` on every
 * request): replies parsed with the shared schemas, failures thrown as ApiError.
 *
 * @example
 * const config = await bff.config();
 */
export const bff = createBffClient();
