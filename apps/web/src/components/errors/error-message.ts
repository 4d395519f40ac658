import { isApiError } from '@wsc/api-client';

export interface ErrorMessage {
  title: string;
  description: string;
  /** Whether trying again can help (5xx, network, rate limit). */
  retryable: boolean;
}

/**
 * One plain explanation per kind of failure, shared by every place that shows errors.
 *
 * @example
 * describeError(new ApiError({ status: 429, code: 'rate_limited', retryAfter: 5 })).title;
 * // 'Too many requests — try again in 5 s'
 */
export function describeError(error: unknown): ErrorMessage {
  if (!isApiError(error)) {
    return {
      title: 'Something went wrong',
      description: error instanceof Error ? error.message : 'An unexpected error occurred.',
      retryable: true,
    };
  }
  const detail = error.detail;
  switch (true) {
    case error.status === 403:
      return {
        title: "You don't have access",
        description:
          detail ??
          'Your account is not allowed to see or change this. Ask an administrator for access.',
        retryable: false,
      };
    case error.status === 404:
      return {
        title: 'Not found',
        description: detail ?? 'It may have been removed, or the link is wrong.',
        retryable: false,
      };
    case error.status === 429:
      return {
        title:
          error.retryAfter !== undefined
            ? `Too many requests — try again in ${error.retryAfter} s`
            : 'Too many requests — try again shortly',
        description: 'The API limits how many requests one account can make per second.',
        retryable: true,
      };
    case error.status === 0:
      return {
        title: 'Could not reach the server',
        description: 'Check your connection and try again.',
        retryable: true,
      };
    case error.status >= 500:
      return {
        title: 'The service had a problem',
        description: 'This is not your fault. Try again in a moment.',
        retryable: true,
      };
    case error.status === 422:
      // A server without per-field problems (the hosted service) says it all in one message.
      return {
        title: 'Some values were not accepted',
        description: detail ?? 'The service refused the values sent. Check them and try again.',
        retryable: false,
      };
    case error.status === 400:
      return {
        title: 'The request was not accepted',
        description: detail ?? error.title,
        retryable: false,
      };
    default:
      return { title: error.title, description: detail ?? error.message, retryable: false };
  }
}
