// The one home of "who did it" as other people see it (ADR 0026): the actor a session's actions
// are recorded and shown with, in the record history, the live events, presence and shared views.
// A name is only as verified as its source: an email typed at sign-in (`self`) is shown as that
// email marked "(unverified)", never as the name a lookup found for it (anyone can type anyone's
// email); a session nobody named (`none`) gets a pseudonym of its owner id, never its client id.
import type { IdentitySource, SessionUser } from '@wsc/api-client';

/** Who did something, as stored and shown: a stable id, a display name and how verified it is. */
export type Actor = { id: string; name: string; identity: IdentitySource };

/** What a `self` name ends with, here and in the console. */
export const UNVERIFIED_SUFFIX = ' (unverified)';

/**
 * The name of a session nobody named: "API client" and the start of its owner id. The owner id is
 * what `actor.id` already shows; the client id stays out of other people's sight.
 *
 * @example
 * pseudonym('3ee32c93-a852-51a1-9af0-4b593e09bd7f'); // 'API client 3ee32c93'
 */
export function pseudonym(ownerId: string): string {
  return `API client ${ownerId.slice(0, 8)}`;
}

/**
 * The name others see for a session's person. Verified names (the API's `/v1/me`, the operator's
 * identities file and the user its email finds) as they are; a typed email as itself, marked.
 *
 * @example
 * displayName({ firstName: 'Ada', lastName: 'Lovelace', identity: 'api', ... }, 'u-1'); // 'Ada Lovelace'
 * displayName({ email: 'a@x.example', firstName: 'Ada', identity: 'self', ... }, 'u-1'); // 'a@x.example (unverified)'
 */
export function displayName(user: SessionUser, ownerId: string): string {
  if (user.identity === 'none') return pseudonym(ownerId);
  if (user.identity === 'self') return `${user.email ?? pseudonym(ownerId)}${UNVERIFIED_SUFFIX}`;
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return full || user.email || pseudonym(ownerId);
}

/**
 * The actor of a session: its owner id (never an email: stable, and what filters match), the name
 * others see, and the identity kind that says how far to trust that name.
 *
 * @example
 * const actor = actorOf(session); // { id: session.ownerId, name: 'Ada Lovelace', identity: 'api' }
 */
export function actorOf(session: { ownerId: string; user: SessionUser }): Actor {
  return {
    id: session.ownerId,
    name: displayName(session.user, session.ownerId),
    identity: session.user.identity,
  };
}
