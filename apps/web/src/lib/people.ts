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
