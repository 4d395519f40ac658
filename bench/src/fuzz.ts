// Fuzz: generated RSQL filters against the running API's record search and user list, and
// generated JSON bodies against every write route, in the extended profile (errors are RFC 9457
// problem documents that must name a field or a position) and, for a smaller share, in the hosted
// profile (errors are `{message}`). Rule: no answer is a 500; every 4xx has the profile's shape.
// Rate limit off (RATE_LIMIT_RPS=0). Inputs come from fast-check with a fixed seed (`--seed`).
import path from 'node:path';
import fc from 'fast-check';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { Profile } from './lib/error-shape.ts';
import type { BodyCase, BodyRoute, FilterCase, FuzzField, FuzzWorld } from './lib/fuzz-gen.ts';
import type { Timed } from './lib/http.ts';
import type { Section } from './lib/report.ts';
import { prepareBenchStore } from './lib/agents.ts';
import { fetchToken, startApi } from './lib/api.ts';
import { numberOption } from './lib/bench.ts';
import { checkError } from './lib/error-shape.ts';
import {
  asPlainComment,
  BODY_ROUTES,
  bodyCases,
  filterCase,
  percentEncode,
  TICKET_FIELDS,
  USER_FIELDS,
} from './lib/fuzz-gen.ts';
import { keepAliveAgent, timedRequest } from './lib/http.ts';
import { tempDir } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';

const TICKETS = '/v1/apps/support-tickets';
const CONCURRENCY = 8;
const BATCH = 2_000;

/** Tally of one target (a search or a write route) in one profile. */
type Tally = {
  target: string;
  profile: Profile;
  sent: number;
  statuses: Map<number, number>;
  /** 4xx answers without the profile's shape (extended: problem+json with a field or position). */
  malformed: number;
  examples: string[];
  fiveHundreds: string[];
  noAnswer: number;
  ms: number;
};

async function hostedToken(
  baseUrl: string,
  credential: { clientId: string; clientSecret: string },
): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: credential.clientId,
      client_secret: credential.clientSecret,
    }),
  });
  const body = (await res.json()) as { access_token?: unknown };
  if (!res.ok || typeof body.access_token !== 'string')
    throw new Error(`hosted token request answered ${res.status}`);
  return body.access_token;
}

async function fuzzProfile(
  ctx: BenchContext,
  profile: Profile,
  counts: { filters: number; bodies: number },
  seed: number,
): Promise<Tally[]> {
  const tmp = await tempDir(`fuzz-${profile}`);
  const agent = keepAliveAgent(CONCURRENCY + 2);
  try {
    const dataDir = path.join(tmp.dir, 'api');
    const { demo } = await prepareBenchStore({ dataDir });
    const api = await startApi(`fuzz-${profile}-api`, {
      DATA_DIR: dataDir,
      API_PROFILE: profile,
      RATE_LIMIT_RPS: '0',
      // Fuzzed searches may be slow; the limit must answer 503, never hang or 500.
      BLOB_MIN_FREE_BYTES: '0',
    });
    try {
      // The hosted profile takes the token request as JSON only (DESIGN.md section 5).
      const token =
        profile === 'hosted'
          ? await hostedToken(api.url, demo.admin)
          : await fetchToken(agent, api.url, demo.admin);
      const get = (target: string) =>
        timedRequest(agent, `${api.url}${target}`, {
          headers: { Authorization: `Bearer ${token}` },
          timeoutMs: 60_000,
        });
      // What the store holds, for plausible bodies.
      const users = JSON.parse((await get('/v1/users?first=200')).body.toString('utf8')) as {
        items: Array<{ id: string; email: string }>;
      };
      const groups = JSON.parse((await get('/v1/groups')).body.toString('utf8')) as {
        items: Array<{ id: string; name: string }>;
      };
      const groupId =
        groups.items.find((g) => g.name === 'Support Tier 2')?.id ?? groups.items[0]?.id;
      if (!groupId || users.items.length === 0)
        throw new Error('fuzz: the demo store has no users or groups');
      const world: FuzzWorld = {
        emails: users.items.map((u) => u.email),
        userIds: users.items.map((u) => u.id),
        recordIds: ['SUP-2', 'SUP-3', 'SUP-40', 'CUS-1', 'CUS-2', 'TSK-1'],
        selfId: 'SUP-1',
      };

      const tallies: Tally[] = [];
      const runTarget = async (
        target: string,
        total: number,
        make: (index: number) => fc.Arbitrary<{ method: string; path: string; body?: BodyCase }>,
        nth: number,
      ) => {
        const tally: Tally = {
          target,
          profile,
          sent: 0,
          statuses: new Map(),
          malformed: 0,
          examples: [],
          fiveHundreds: [],
          noAnswer: 0,
          ms: 0,
        };
        const started = performance.now();
        for (let done = 0; done < total; done += BATCH) {
          const size = Math.min(BATCH, total - done);
          const cases = fc.sample(make(done), {
            numRuns: size,
            seed: seed + nth * 1_000_003 + done,
          });
          let next = 0;
          const worker = async () => {
            while (next < cases.length) {
              const c = cases[next] as { method: string; path: string; body?: BodyCase };
              next += 1;
              let res: Timed;
              try {
                res = await timedRequest(agent, `${api.url}${c.path}`, {
                  method: c.method,
                  headers: {
                    Authorization: `Bearer ${token}`,
                    ...(c.body
                      ? { 'Content-Type': c.body.contentType, Accept: 'application/json' }
                      : {}),
                  },
                  ...(c.body ? { body: Buffer.from(c.body.text, 'utf8') } : {}),
                  timeoutMs: 60_000,
                });
              } catch (error) {
                tally.noAnswer += 1;
                if (tally.examples.length < 5)
                  tally.examples.push(
                    `no answer: ${c.method} ${c.path.slice(0, 200)}: ${(error as Error).message}`,
                  );
                continue;
              }
              tally.sent += 1;
              tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
              if (res.status >= 500 && res.status !== 503) {
                if (tally.fiveHundreds.length < 10)
                  tally.fiveHundreds.push(
                    `${res.status} ${c.method} ${c.path.slice(0, 300)}${c.body ? ` body ${JSON.stringify(c.body.text.slice(0, 300))}` : ''} -> ${res.body.toString('utf8').slice(0, 300)}`,
                  );
              } else if (res.status >= 400 && res.status < 500) {
                const problem = checkError(profile, res);
                if (problem) {
                  tally.malformed += 1;
                  if (tally.examples.length < 5)
                    tally.examples.push(
                      `${res.status} ${problem}: ${c.method} ${c.path.slice(0, 200)}${c.body ? ` body ${JSON.stringify(c.body.text.slice(0, 200))}` : ''} -> ${res.body.toString('utf8').slice(0, 200)}`,
                    );
                }
              }
            }
          };
          await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        }
        tally.ms = performance.now() - started;
        tallies.push(tally);
        ctx.log(
          `fuzz ${profile} ${target}: ${tally.sent} answers in ${(tally.ms / 1000).toFixed(0)} s: ${[
            ...tally.statuses,
          ]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}x${n}`)
            .join(' ')}; malformed 4xx ${tally.malformed}; 500s ${tally.fiveHundreds.length}`,
        );
      };

      const search = (base: string, fields: readonly FuzzField[]) => () =>
        filterCase(fields).map((f: FilterCase) => ({
          method: 'GET',
          path: `${base}?filter=${percentEncode(f.filter)}${f.extra}`,
        }));
      let nth = 0;
      await runTarget(
        'record search (filter)',
        counts.filters,
        search(TICKETS, TICKET_FIELDS),
        nth++,
      );
      await runTarget(
        'user list (filter)',
        Math.round(counts.filters / 4),
        search('/v1/users', USER_FIELDS),
        nth++,
      );

      const routes: Record<BodyRoute, { method: string; path: string }> = {
        'records create': { method: 'POST', path: TICKETS },
        'records update': { method: 'PUT', path: `${TICKETS}/SUP-1` },
        'users create': { method: 'POST', path: '/v1/users' },
        'group members add': { method: 'POST', path: `/v1/groups/${groupId}/users` },
        'group members remove': { method: 'DELETE', path: `/v1/groups/${groupId}/users` },
        comments: { method: 'POST', path: `${TICKETS}/SUP-1/comment` },
        'watchers add': { method: 'POST', path: `${TICKETS}/SUP-1/watchers` },
        'watchers remove': { method: 'DELETE', path: `${TICKETS}/SUP-1/watchers` },
        'url-links': { method: 'POST', path: `${TICKETS}/SUP-1/attachments/url-links` },
        'related items': { method: 'POST', path: `${TICKETS}/SUP-1/related-items` },
      };
      for (const route of BODY_ROUTES) {
        const { method, path: target } = routes[route];
        await runTarget(
          `${route} (${method} ${target.replace(groupId, '{groupId}')})`,
          counts.bodies,
          () =>
            bodyCases(route, world).map((body) => ({
              method,
              path: target,
              // The hosted comment route takes text/plain only (the published contract).
              body: profile === 'hosted' && route === 'comments' ? asPlainComment(body) : body,
            })),
          nth++,
        );
      }
      return tallies;
    } finally {
      await api.stop();
    }
  } finally {
    agent.destroy();
    await tmp.remove();
  }
}

async function run(ctx: BenchContext): Promise<Section> {
  const filters = numberOption(ctx.options, 'filters', 100_000, 1, 10_000_000);
  const bodies = numberOption(ctx.options, 'bodies', 10_000, 1, 1_000_000);
  const hostedShare = numberOption(ctx.options, 'hosted-share', 0.1, 0, 1);
  const seed = numberOption(ctx.options, 'seed', 20_261_124, 0, 2 ** 31 - 1);

  const extended = await fuzzProfile(ctx, 'extended', { filters, bodies }, seed);
  const hosted =
    hostedShare > 0
      ? await fuzzProfile(
          ctx,
          'hosted',
          {
            filters: Math.max(1, Math.round(filters * hostedShare)),
            bodies: Math.max(1, Math.round(bodies * hostedShare)),
          },
          seed + 7,
        )
      : [];
  const all = [...extended, ...hosted];
  const sum = (list: Tally[], f: (t: Tally) => number) => list.reduce((s, t) => s + f(t), 0);
  const fives = (list: Tally[]) =>
    sum(list, (t) =>
      [...t.statuses].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0),
    );
  const total = (list: Tally[]) => sum(list, (t) => t.sent);
  const statusColumns = [...new Set(all.flatMap((t) => [...t.statuses.keys()]))].sort(
    (a, b) => a - b,
  );
  const examples = all.flatMap((t) =>
    [...t.fiveHundreds, ...t.examples].map((e) => `${t.profile} ${t.target}: ${e}`),
  );

  return {
    id: 'fuzz',
    title: 'Fuzz: generated RSQL filters and JSON bodies against the running API',
    command: ctx.command,
    date: new Date(),
    machine: machineInfo(),
    figures: [
      {
        name: `answers of 500 (or any 5xx but 503), extended profile (of ${total(extended).toLocaleString('en')})`,
        value: String(fives(extended)),
        budget: '0',
        pass: fives(extended) === 0,
      },
      {
        name: 'extended: 4xx that are not a problem document naming a field or a position',
        value: String(sum(extended, (t) => t.malformed)),
        budget: '0',
        pass: sum(extended, (t) => t.malformed) === 0,
      },
      ...(hosted.length > 0
        ? [
            {
              name: `answers of 500 (or any 5xx but 503), hosted profile (of ${total(hosted).toLocaleString('en')})`,
              value: String(fives(hosted)),
              budget: '0',
              pass: fives(hosted) === 0,
            },
            {
              name: 'hosted: 4xx that are not {message}',
              value: String(sum(hosted, (t) => t.malformed)),
              budget: '0',
              pass: sum(hosted, (t) => t.malformed) === 0,
            },
          ]
        : []),
      {
        name: 'requests without an answer (60 s limit each)',
        value: String(sum(all, (t) => t.noAnswer)),
        budget: '0',
        pass: sum(all, (t) => t.noAnswer) === 0,
      },
    ],
    tables: [
      {
        title: 'Answers per status',
        headers: [
          'profile',
          'target',
          'sent',
          ...statusColumns.map(String),
          'malformed 4xx',
          'req/s',
        ],
        rows: all.map((t) => [
          t.profile,
          t.target,
          t.sent.toLocaleString('en'),
          ...statusColumns.map((s) => (t.statuses.get(s) ?? 0).toLocaleString('en')),
          String(t.malformed),
          (t.sent / (t.ms / 1000)).toFixed(0),
        ]),
      },
    ],
    notes: [
      `Method: the API as a separate process on a fresh PGlite store with the demo seed (4,000 support tickets, 60 users), rate limit off (RATE_LIMIT_RPS=0), ${CONCURRENCY} concurrent requests with the admin's token (validation, not permissions, is under test). Inputs are sampled from fast-check arbitraries (bench/src/lib/fuzz-gen.ts) with seed ${seed} (\`--seed\`), ${BATCH} at a time.`,
      `Filters (${filters.toLocaleString('en')} on the record search, a quarter of that on the user list): 45% well-formed RSQL over the definition's fields and system fields (every operator, both list forms, quoted and bare values, typed values and wrong ones, \`null\`, nested AND/OR groups), 45% of those mutated 1-3 times (characters from a hostile set inserted: RSQL syntax, quotes, backslashes, NUL, controls, unpaired surrogates, RTL marks, emoji; ranges deleted or duplicated; cut short; nested 8-40 deep; padded past 4 KB), 10% random text; a tenth also carry a random \`sort\`, \`first\` or \`after\`. Sent percent-encoded byte by byte, unpaired surrogates as their WTF-8 bytes (invalid UTF-8) and \`%zz\` as a broken escape.`,
      `Bodies (${bodies.toLocaleString('en')} per route): 70% objects with the route's keys (plausible values, a sixth of them replaced by hostile ones: wrong types, NUL, unpaired surrogates, 1-12,000 character strings, arrays, objects) plus sometimes unknown keys; 20% arbitrary JSON values; 10% broken JSON (cut, trailing junk, NUL, BOM). Valid bodies are written (records, users, memberships, comments, watchers, links, relations are created).`,
      `Hosted profile: ${Math.round(hostedShare * 100)}% of those counts on a second store with API_PROFILE=hosted, where errors are \`{message}\` and comments are sent as \`text/plain\` (the contents string), as the published route takes.`,
      'A 503 is the search time limit answering (allowed: "a search that hits it is 503 with Retry-After, never a stalled region"); any other 5xx counts as a 500. A 431 (request line and headers over 16 KiB, refused by Node\'s HTTP parser before any parameter is read) counts as well-formed when it is a problem document with a `detail`: the API answers those itself (ADR 0012).',
      ...(examples.length > 0 ? [`Examples: ${examples.slice(0, 12).join(' | ')}`] : []),
    ],
  };
}

export const fuzzBench: Bench = { id: 'fuzz', title: 'Fuzz', run };
