// How people are named and their status worded, wherever the console shows them. Servers that
// follow only the published contract may leave any of a user's fields out.

/**
 * A person's name: first and last name, else their email, else `fallback`.
 *
 * @example
 * personName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }); // 'Ada Lovelace'
 * personName({ firstName: '', lastName: '', email: 'ops@example.com' }); // 'ops@example.com'
 */
export function personName(
  person: { firstName?: string; lastName?: string; email?: string },
  fallback = 'Unknown person',
): string {
  const name = [person.firstName, person.lastName].filter(Boolean).join(' ');
  return name || person.email || fallback;
}

/**
 * A user status in words: Active, Inactive, the service's own word for another value, or `—`
 * when the reply had none.
 *
 * @example
 * statusLabel('INACTIVE'); // 'Inactive'
 * statusLabel(undefined); // '—'
 */
export function statusLabel(status: string | undefined): string {
  if (status === 'ACTIVE') return 'Active';
  if (status === 'INACTIVE') return 'Inactive';
  if (!status) return '—';
  return status.charAt(0) + status.slice(1).toLowerCase();
}

/** How verified a name others see is (the BFF's identity kind, ADR 0026). */
export type IdentityKind = 'api' | 'operator' | 'self' | 'none';

const UNVERIFIED = ' (unverified)';

/**
 * The name of someone else as text (notices, toasts, labels): a `self` name, an email typed at
 * sign-in, always ends in "(unverified)" (the BFF sends it so; entries kept before it did are
 * marked here), and so does a name whose kind is unknown; other names as they are.
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

/**
 * A name without the "(unverified)" mark (for initials, and where the mark is shown apart).
 *
 * @example
 * bareName('ana@x.example (unverified)'); // 'ana@x.example'
 */
export function bareName(name: string): string {
  return name.endsWith(UNVERIFIED) ? name.slice(0, -UNVERIFIED.length) : name;
}

/**
 * What an identity kind means, in words: the hover text of a name, and what the people filter
 * shows next to each name.
 *
 * @example
 * identityKindLabel('self'); // 'unverified: an email typed at sign-in'
 */
export function identityKindLabel(identity: IdentityKind | undefined): string {
  switch (identity) {
    case 'api':
      return 'verified by the service';
    case 'operator':
      return 'named by the operator';
    case 'none':
      return 'an API client nobody named';
    default:
      return 'unverified: an email typed at sign-in';
  }
}
