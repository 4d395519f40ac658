// Someone else's name as text, only as verified as it is (ADR 0026): the one rule every place that
// names a person for what they did (presence, shared views, the history) goes through. Kept apart
// from lib/people.ts and tiny: the sidebar's shared views need it in the first load.

/** How verified a name others see is (the BFF's identity kind). */
export type IdentityKind = 'api' | 'operator' | 'self' | 'none';

/** What a name typed at sign-in ends with, as the BFF sends it and the console shows it. */
export const UNVERIFIED = ' (unverified)';

/**
 * The name as text (notices, toasts, labels): a `self` name, an email typed at sign-in, always
 * ends in "(unverified)" (the BFF sends it so; entries kept before it did are marked here), and
 * so does a name whose kind is unknown; other names as they are.
 *
 * @example
 * personLabel('ana@x.example (unverified)', 'self'); // 'ana@x.example (unverified)'
 * personLabel('Alex Morgan', 'self'); // 'Alex Morgan (unverified)'
 * personLabel('Ana Lima', 'api'); // 'Ana Lima'
 */
export function personLabel(name: string, identity: IdentityKind | undefined): string {
  // Unknown (a reply without the kind) counts as unverified: never more than it is.
  if (identity !== undefined && identity !== 'self') return name;
  return name.endsWith(UNVERIFIED) ? name : `${name}${UNVERIFIED}`;
}
