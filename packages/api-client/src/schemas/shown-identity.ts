// The identity kind next to a name others see (history entries, live events): its own module,
// imported only by the history's and the live events' subpath exports, so the `.catch` stays out of
// the console's first load (the package entry's schemas are all built there).
import { IdentitySourceSchema } from './bff.ts';

/**
 * A value that is missing or unknown (a BFF instance older or newer than this code, during a
 * rolling deploy) reads as `self`, so a name is never shown as more verified than it is.
 *
 * @example
 * ShownIdentitySchema.parse(undefined); // 'self'
 */
export const ShownIdentitySchema = IdentitySourceSchema.catch('self');
