// The demo's people: an admin, a support agent and the members of each demo group, with names of
// the region, a few inactive accounts and some people in two groups.
import type { Role, UserStatus } from '../db/schema.ts';
import type { DEMO_GROUPS } from '../workspace/demo-workspace.ts';
import type { Rng } from './prng.ts';
import { uuidFrom } from './prng.ts';
import { EU_FIRST_NAMES, EU_LAST_NAMES, FIRST_NAMES, JOB_TITLES, LAST_NAMES } from './seed-data.ts';

/** Demo people per group (the admin and the agent come on top). */
const GROUP_SIZES: Array<[keyof typeof DEMO_GROUPS, number]> = [
  ['admins', 2],
  ['tier1', 19],
  ['tier2', 10],
  ['billing', 6],
  ['engineering', 11],
  ['success', 10],
];

/**
 * The demo email domain of a region.
 *
 * @example
 * demoDomain('eu'); // 'eu.helpdesk.example'
 */
export function demoDomain(region: 'default' | 'eu'): string {
  return region === 'eu' ? 'eu.helpdesk.example' : 'helpdesk.example';
}

const emailPart = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** A demo person and the demo groups they sit in. */
export type DemoUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  job_title: string;
  status: UserStatus;
  role: Role;
  groups: Array<keyof typeof DEMO_GROUPS>;
};

/**
 * The demo people of a region: the admin and the agent first, then each group's members.
 *
 * @example
 * const [admin, agent] = demoUsers(createRng(1), 'default');
 */
export function demoUsers(rng: Rng, region: 'default' | 'eu'): DemoUser[] {
  const domain = demoDomain(region);
  const firsts = region === 'eu' ? EU_FIRST_NAMES : FIRST_NAMES;
  const lasts = region === 'eu' ? EU_LAST_NAMES : LAST_NAMES;
  const users: DemoUser[] = [
    {
      id: uuidFrom(rng),
      email: `admin@${domain}`,
      first_name: 'Alex',
      last_name: 'Morgan',
      job_title: 'Head of Support',
      status: 'ACTIVE',
      role: 'ADMIN',
      groups: ['admins'],
    },
    {
      id: uuidFrom(rng),
      email: `agent@${domain}`,
      first_name: 'Sam',
      last_name: 'Rivera',
      job_title: 'Support Agent',
      status: 'ACTIVE',
      role: 'MEMBER',
      groups: ['tier1'],
    },
  ];
  const taken = new Set<string>();
  for (const [group, size] of GROUP_SIZES) {
    for (let i = 0; i < size; i += 1) {
      let first = rng.pick(firsts);
      let last = rng.pick(lasts);
      while (taken.has(`${first} ${last}`)) {
        first = rng.pick(firsts);
        last = rng.pick(lasts);
      }
      taken.add(`${first} ${last}`);
      const groups: DemoUser['groups'] = [group];
      // Some overlap, as in real teams: senior agents also sit with engineering, managers with billing.
      if (group === 'tier2' && rng.chance(0.3)) groups.push('engineering');
      if (group === 'success' && rng.chance(0.2)) groups.push('billing');
      users.push({
        id: uuidFrom(rng),
        email: `${emailPart(first)}.${emailPart(last)}@${domain}`,
        first_name: first,
        last_name: last,
        job_title: rng.pick(JOB_TITLES[group]),
        // A few people have left: their accounts stay, inactive.
        status: group !== 'admins' && rng.chance(0.07) ? 'INACTIVE' : 'ACTIVE',
        role: group === 'admins' && i === 0 ? 'ADMIN' : 'MEMBER',
        groups,
      });
    }
  }
  return users;
}
