import { QueryClient } from '@tanstack/react-query';

import type { ApiError } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

declare module '@tanstack/react-query' {
  interface Register {
    // Every fetcher goes through @wsc/api-client, which throws ApiError for any failure.
    defaultError: ApiError;
  }
}

/**
 * Retries only what another attempt can fix: network failures and 5xx, once. A 4xx will answer the
 * same again, and 429 carries its own wait that the UI shows instead.
 *
 * @example
 * shouldRetry(0, new ApiError({ status: 503, code: 'service_unavailable' })); // true
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isApiError(error)) return false;
  return error.status === 0 || error.status >= 500;
}

/**
 * Creates the app's query client with the house defaults.
 *
 * @example
 * const queryClient = createQueryClient();
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
