import { isRsqlError, parse, serialize } from '@wsc/rsql';

import type { Profile } from './schemas/bff.ts';
import { ApiError } from './errors.ts';

/**
 * The filter text to send to a server of `profile`. Extended servers get it unchanged. Hosted ones
 * get it rewritten into the published dialect (`!in=`, `!bt=`, `a:b` lists, no parentheses), so
 * whatever the console or a user wrote stays inside the contract. A filter that does not parse, or
 * cannot be written in the published dialect, is an ApiError 400 `bad_filter` whose `problem`
 * carries the `position`, exactly like the server's own answer would.
 *
 * @example
 * filterForProfile('Status=out=(New,Open)', 'hosted'); // 'Status!in=New:Open'
 * filterForProfile('Status=out=(New,Open)', 'extended'); // 'Status=out=(New,Open)'
 */
export function filterForProfile(filter: string | undefined, profile: Profile): string | undefined {
  if (filter === undefined || filter.trim() === '' || profile === 'extended') return filter;
  try {
    return serialize(parse(filter), { dialect: 'hosted' });
  } catch (error) {
    if (!isRsqlError(error)) throw error;
    throw new ApiError({
      status: 400,
      code: 'bad_filter',
      title: 'Bad filter',
      detail: error.message,
      errors: [{ field: 'filter', message: error.message }],
      problem: { position: error.position, code: error.code },
    });
  }
}
