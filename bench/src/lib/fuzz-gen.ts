// Generated input for the fuzz benchmark (fast-check arbitraries, sampled with a fixed seed so a
// run can be repeated): RSQL filters over the demo's fields, well-formed and mutated, and JSON
// bodies for each write route, mostly plausible and partly hostile (wrong types, unknown keys,
// NUL and unpaired surrogates, very long strings, broken JSON).
import fc from 'fast-check';
import { demoWorkspace, SYSTEM_FIELDS } from 'workspace-api/tools';

import { OPERATORS as RSQL_OPERATORS } from '@wsc/rsql';

/** A field a filter may name: its name, its field type (TEXT, NUMBER, ... HANDLE) and picklist values. */
export type FuzzField = { name: string; type: string; values?: readonly string[] };

const tickets = demoWorkspace.definitions.find(
  (definition) => definition.alias === 'support-tickets',
);
if (!tickets) throw new Error('The demo workspace has no support-tickets definition');

/** Support tickets of the demo workspace (the API's own definition), system fields included. */
export const TICKET_FIELDS: readonly FuzzField[] = [
  ...SYSTEM_FIELDS.filter((field) => field.type === 'HANDLE'),
  ...tickets.fields,
  ...SYSTEM_FIELDS.filter((field) => field.type !== 'HANDLE'),
];

/** The user list's filter fields. */
export const USER_FIELDS: readonly FuzzField[] = [
  { name: 'id', type: 'HANDLE' },
  { name: 'email', type: 'TEXT' },
  { name: 'firstName', type: 'TEXT' },
  { name: 'lastName', type: 'TEXT' },
  { name: 'jobTitle', type: 'TEXT' },
  { name: 'status', type: 'PICKLIST', values: ['ACTIVE', 'INACTIVE'] },
];

/** Every operator on every field, synonyms included: the fuzz also sends the invalid pairs. */
const OPERATORS = RSQL_OPERATORS.map((info) => info.op);
const TWO = new Set(RSQL_OPERATORS.filter((info) => info.arity === 'two').map((info) => info.op));
const MANY = new Set(RSQL_OPERATORS.filter((info) => info.arity === 'many').map((info) => info.op));

/** Characters that break things: RSQL syntax, quotes, escapes, controls, NUL, lone surrogates, astral, RTL. */
const NASTY = [
  ';',
  ',',
  '(',
  ')',
  '=',
  '!',
  '~',
  '<',
  '>',
  ':',
  "'",
  '"',
  '\\',
  '*',
  '%',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u0001',
  '\u007f',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  '😀',
  'é',
  '中',
  'null',
  'and',
  'or',
  '%00',
  '%zz',
];

const nastyChar = fc.constantFrom(...NASTY);
/** Short strings mixing ordinary characters with the nasty ones. */
export const nastyString = fc
  .array(
    fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 6, unit: 'grapheme' }) }, nastyChar),
    {
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(''));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateArb = fc
  .record({
    y: fc.integer({ min: 1990, max: 2040 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ y, m, d }) => `${y}-${pad(m)}-${pad(d)}`);
const datetimeArb = fc
  .tuple(dateArb, fc.integer({ min: 0, max: 86_399_999 }))
  .map(
    ([date, ms]) =>
      `${date}T${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}Z`,
  );
const emailArb = fc.oneof(
  fc.constantFrom('admin@helpdesk.example', 'agent@helpdesk.example', 'nobody@example.com'),
  fc.emailAddress(),
);

/** A value that suits the field's kind (sometimes), or anything (otherwise). */
function valueFor(field: FuzzField): fc.Arbitrary<string> {
  const typed: fc.Arbitrary<string> = (() => {
    switch (field.type) {
      case 'NUMBER':
        return fc.oneof(
          fc.integer({ min: -5, max: 100 }).map(String),
          fc.double({ noNaN: false }).map(String),
        );
      case 'DATE':
        return fc.oneof(dateArb, fc.constantFrom('2024-02-30', '2024-13-01', '24-1-1'));
      case 'DATETIME':
        return fc.oneof(datetimeArb, dateArb, fc.constantFrom('2024-01-01T25:00:00.000Z'));
      case 'PICKLIST':
      case 'MULTI_PICKLIST':
        return fc.constantFrom(...(field.values ?? ['x']), 'Nope');
      case 'USER_ID':
        return emailArb;
      case 'BOOLEAN':
        return fc.constantFrom('true', 'false', 'TRUE', 'yes', '1');
      case 'HANDLE':
        return fc.oneof(
          fc.integer({ min: 0, max: 99_999 }).map((n) => `SUP-${n}`),
          fc.uuid(),
          fc.constantFrom('SUP-', 'SUP-1x', 'CUS-1'),
        );
      default:
        return fc.oneof(
          fc.constantFrom('SSO', 'login', 'Acme', 'a*b', '*'),
          fc.string({ maxLength: 12 }),
        );
    }
  })();
  return fc.oneof(
    { weight: 6, arbitrary: typed },
    { weight: 1, arbitrary: fc.constant('null') },
    { weight: 2, arbitrary: nastyString },
  );
}

/** Quotes a value when it needs it (or sometimes when it does not), escaping quotes and backslashes. */
function quote(value: string, style: 0 | 1 | 2): string {
  const plain = /^[^\s;,()'"=!~<>\\]+$/.test(value) && value !== '';
  if (style === 0 && plain) return value;
  const q = style === 2 ? "'" : '"';
  return `${q}${value.replaceAll('\\', '\\\\').replaceAll(q, `\\${q}`)}${q}`;
}

function comparisonArb(fields: readonly FuzzField[]): fc.Arbitrary<string> {
  return fc
    .record({
      field: fc.constantFrom(...fields),
      op: fc.constantFrom(...OPERATORS),
      quoteSelector: fc.boolean(),
      styles: fc.array(fc.constantFrom<0 | 1 | 2>(0, 0, 1, 2), { minLength: 4, maxLength: 4 }),
      listStyle: fc.boolean(),
      seed: fc.integer(),
    })
    .chain(({ field, op, quoteSelector, styles, listStyle }) => {
      const count = TWO.has(op) ? 2 : MANY.has(op) ? 3 : 1;
      return fc
        .array(valueFor(field), { minLength: MANY.has(op) ? 1 : count, maxLength: count })
        .map((values) => {
          const selector =
            quoteSelector && field.name.includes(' ') ? `"${field.name}"` : field.name;
          const quoted = values.map((value, i) => quote(value, styles[i] ?? 0));
          const rhs = TWO.has(op)
            ? quoted.join(':')
            : MANY.has(op)
              ? listStyle
                ? `(${quoted.join(',')})`
                : quoted.join(':')
              : (quoted[0] ?? '');
          return `${selector}${op}${rhs}`;
        });
    });
}

/**
 * A well-formed filter over `fields` (syntactically valid RSQL; values may still be wrong for
 * their field, which the API must answer with a 400 naming the position).
 *
 * @example
 * fc.sample(wellFormedFilter(TICKET_FIELDS), 3);
 */
export function wellFormedFilter(fields: readonly FuzzField[]): fc.Arbitrary<string> {
  const { expr } = fc.letrec<{ expr: string; group: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      comparisonArb(fields),
      fc
        .tuple(tie('group'), fc.constantFrom(';', ',', ' and ', ' or ', ';'), tie('group'))
        .map(([a, op, b]) => `${a}${op}${b}`),
    ),
    group: fc.oneof(
      { depthSize: 'small' },
      comparisonArb(fields),
      tie('expr').map((inner) => `(${inner})`),
    ),
  }));
  return expr;
}

/** Edits that turn a filter into something near-valid: the parser's edge cases. */
const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(nastyChar, nastyString),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('duplicate' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({ kind: fc.constant('nest' as const), depth: fc.integer({ min: 8, max: 40 }) }),
  fc.record({ kind: fc.constant('long' as const), length: fc.integer({ min: 1000, max: 6000 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(input: string, edits: Mutation[]): string {
  let s = input;
  for (const edit of edits) {
    const at = 'at' in edit ? edit.at % (s.length + 1) : 0;
    switch (edit.kind) {
      case 'insert':
        s = s.slice(0, at) + edit.text + s.slice(at);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + edit.length);
        break;
      case 'truncate':
        s = s.slice(0, at);
        break;
      case 'duplicate':
        s =
          s.slice(0, at + edit.length) + s.slice(at, at + edit.length) + s.slice(at + edit.length);
        break;
      case 'nest':
        s = `${'('.repeat(edit.depth)}${s}${')'.repeat(edit.depth)}`;
        break;
      case 'long':
        s = `${s};Title=="${'x'.repeat(edit.length)}"`;
        break;
    }
  }
  return s;
}

/**
 * A well-formed filter with 1-3 edits applied (characters inserted, deleted, duplicated, the text
 * cut, nested too deep, made too long).
 *
 * @example
 * fc.sample(mutatedFilter(USER_FIELDS), 3);
 */
export function mutatedFilter(fields: readonly FuzzField[]): fc.Arbitrary<string> {
  return fc
    .tuple(wellFormedFilter(fields), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([filter, edits]) => mutate(filter, edits));
}

/** What a fuzzed search sends: the filter, and sometimes a sort and a page size. */
export type FilterCase = {
  kind: 'well-formed' | 'mutated' | 'random';
  filter: string;
  extra: string;
};

/**
 * The mix the fuzz benchmark sends: 45% well-formed, 45% mutated, 10% random text.
 *
 * @example
 * const cases = fc.sample(filterCase(TICKET_FIELDS), { numRuns: 1000, seed: 42 });
 */
export function filterCase(fields: readonly FuzzField[]): fc.Arbitrary<FilterCase> {
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('-', ''), fc.constantFrom(...fields.map((f) => f.name), 'Nope', ''))
        .map(([dir, name]) => `&sort=${percentEncode(dir + name)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '&first=1',
        '&first=1000',
        '&first=0',
        '&first=-1',
        '&first=x',
        '&after=abc',
      ),
    },
  );
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc.record({
        kind: fc.constant('well-formed' as const),
        filter: wellFormedFilter(fields),
        extra,
      }),
    },
    {
      weight: 9,
      arbitrary: fc.record({
        kind: fc.constant('mutated' as const),
        filter: mutatedFilter(fields),
        extra,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('random' as const),
        filter: fc.oneof(fc.string({ maxLength: 40, unit: 'binary' }), nastyString),
        extra,
      }),
    },
  );
}

/**
 * Percent-encodes every byte but the unreserved ones. Unpaired surrogates, which UTF-8 cannot
 * carry, are sent as their WTF-8 bytes (`%ED%A0%80`), so the server meets the invalid sequence;
 * `%00` goes through as NUL. A literal `%zz` in the input stays a broken escape on purpose.
 *
 * @example
 * percentEncode('a b'); // 'a%20b'
 * percentEncode('\ud800'); // '%ED%A0%80'
 */
export function percentEncode(input: string): string {
  let out = '';
  for (let i = 0; i < input.length; i += 1) {
    const code = input.charCodeAt(i);
    if (input.startsWith('%zz', i)) {
      out += '%zz';
      i += 2;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < input.length) {
      const next = input.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += encodeBytes(Buffer.from(input.slice(i, i + 2), 'utf8'));
        i += 1;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      // WTF-8 of a lone surrogate: 1110xxxx 10xxxxxx 10xxxxxx.
      out += encodeBytes(
        Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]),
      );
      continue;
    }
    const ch = input[i] as string;
    out += /^[A-Za-z0-9\-._~]$/.test(ch) ? ch : encodeBytes(Buffer.from(ch, 'utf8'));
  }
  return out;
}

function encodeBytes(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON bodies

/** What the body generators need to know about the running store. */
export type FuzzWorld = {
  /** Emails of existing users (some active, some not). */
  emails: readonly string[];
  /** Ids of existing users. */
  userIds: readonly string[];
  /** Record ids that exist (SUP-n, CUS-n, TSK-n ...). */
  recordIds: readonly string[];
  /** The record the record-scoped routes write to. */
  selfId: string;
};

/** A body to send: JSON text (possibly broken on purpose) and its content type. */
export type BodyCase = {
  kind: 'plausible' | 'hostile' | 'broken';
  text: string;
  contentType: string;
};

/**
 * A comment case for the hosted profile, whose comment route takes `text/plain` only: a JSON
 * object's `contents` string becomes the text (so the hostile strings reach validation); anything
 * else is sent as it is, as text.
 *
 * @example
 * asPlainComment({ kind: 'plausible', text: '{"contents":"hi"}', contentType: 'application/json' });
 * // { kind: 'plausible', text: 'hi', contentType: 'text/plain; charset=utf-8' }
 */
export function asPlainComment(body: BodyCase): BodyCase {
  let text = body.text;
  try {
    const parsed: unknown = JSON.parse(body.text);
    const contents = (parsed as { contents?: unknown } | null)?.contents;
    if (typeof contents === 'string') text = contents;
  } catch {
    // broken JSON: sent as it is
  }
  return { ...body, text, contentType: 'text/plain; charset=utf-8' };
}

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true }) },
);

/** Any JSON value, with strings that PostgreSQL cannot store and long ones now and then. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.integer({ min: 1, max: 12_000 }).map((n) => 'x'.repeat(n)),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

/** Mostly-plausible objects built from `fields` (key -> plausible values), mixed with hostile ones. */
function objectOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const keys = Object.keys(fields);
  const plausible = fc
    .subarray(keys, { minLength: 0 })
    .chain((chosen) =>
      fc.tuple(
        ...chosen.map((key) =>
          fc
            .oneof(
              { weight: 5, arbitrary: fields[key] as fc.Arbitrary<unknown> },
              { weight: 1, arbitrary: hostileValue },
            )
            .map((value) => [key, value] as const),
        ),
      ),
    )
    .chain((entries) =>
      fc.dictionary(nastyString, hostileValue, { maxKeys: 2 }).chain((extra) =>
        fc.boolean().map((withExtra) => ({
          ...(withExtra ? extra : {}),
          ...Object.fromEntries(entries),
        })),
      ),
    );
  return plausible;
}

/** Serializes, and sometimes breaks, a value: truncation, trailing junk, duplicate keys, BOM. */
function asBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<BodyCase> {
  const json = 'application/json';
  return fc.oneof(
    {
      weight: 14,
      arbitrary: value.map((v) => ({
        kind: 'plausible' as const,
        text: JSON.stringify(v) ?? 'null',
        contentType: json,
      })),
    },
    {
      weight: 4,
      arbitrary: anyJson.map((v) => ({
        kind: 'hostile' as const,
        text: JSON.stringify(v) ?? 'null',
        contentType: json,
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          value,
          fc.nat(),
          fc.constantFrom('', '}', ']', ',', '\u0000', '\ufeff', ' garbage', '{"a":1}'),
        )
        .map(([v, at, junk]) => {
          const text = JSON.stringify(v) ?? '';
          return {
            kind: 'broken' as const,
            text: text.slice(0, at % (text.length + 1)) + junk,
            contentType: json,
          };
        }),
    },
  );
}

/**
 * The generated bodies of one write route.
 *
 * @example
 * const bodies = fc.sample(bodyCases('records create', world), { numRuns: 10_000, seed: 1 });
 */
export function bodyCases(route: BodyRoute, world: FuzzWorld): fc.Arbitrary<BodyCase> {
  const status = fc.constantFrom(
    'New',
    'Open',
    'Pending',
    'On Hold',
    'Resolved',
    'Closed',
    'open',
    '',
  );
  const email = fc.oneof(fc.constantFrom(...world.emails), emailArb, nastyString);
  const recordFields: Record<string, fc.Arbitrary<unknown>> = {
    Title: fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), nastyString),
    Description: fc.string({ maxLength: 200 }),
    Status: status,
    Severity: fc.constantFrom('Low', 'Medium', 'High', 'Critical', 'Urgent'),
    Priority: fc.oneof(
      fc.integer({ min: 0, max: 9 }).map(String),
      fc.integer(),
      fc.constant('1.5'),
    ),
    Assignee: email,
    'Due Date': fc.oneof(dateArb, datetimeArb, fc.constant('2024-02-30')),
    Customer: fc.string({ maxLength: 30 }),
    Category: fc.constantFrom('Billing', 'Technical', 'Bug', 'Other', 'Nope'),
    'Resolved At': fc.oneof(datetimeArb, dateArb),
    Tags: fc.oneof(
      fc.subarray(['urgent', 'vip', 'regression', 'nope']).map((tags) => tags.join(',')),
      fc.subarray(['urgent', 'vip']),
    ),
    Billable: fc.constantFrom('true', 'false', true, 'maybe'),
    id: fc.constantFrom('SUP-1', 'SUP-999999'),
    'Created At': datetimeArb,
    'Created By': email,
  };
  const uuid = fc.oneof(fc.constantFrom(...world.userIds), fc.uuid(), nastyString);
  switch (route) {
    case 'records create':
    case 'records update':
      return asBody(
        fc.oneof(
          { weight: 2, arbitrary: objectOf(recordFields) },
          // A valid record now and then, so that writes happen too.
          {
            weight: 1,
            arbitrary: fc.record(
              {
                Title: fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== ''),
                Status: fc.constantFrom('New', 'Open', 'Pending'),
                Severity: fc.constantFrom('Low', 'High'),
                Priority: fc.integer({ min: 1, max: 5 }).map(String),
                'Due Date': dateArb,
              },
              { requiredKeys: ['Title', 'Status'] },
            ),
          },
        ),
      );
    case 'users create':
      return asBody(
        fc.oneof(
          {
            weight: 2,
            arbitrary: objectOf({
              email: fc.oneof(
                fc.tuple(fc.emailAddress(), fc.nat()).map(([e, n]) => `fz${n}.${e}`.slice(-254)),
                fc.constantFrom(...world.emails),
                nastyString,
              ),
              firstName: fc.oneof(fc.string({ maxLength: 110 }), nastyString),
              lastName: fc.oneof(fc.string({ maxLength: 110 }), nastyString),
              jobTitle: fc.string({ maxLength: 210 }),
              neverNotify: fc.oneof(fc.boolean(), fc.constant('yes')),
            }),
          },
          // A valid user now and then, so that writes happen too.
          {
            weight: 1,
            arbitrary: fc.record({
              email: fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `fuzz.${a}.${b}@example.com`),
              firstName: fc.constantFrom('Ana', 'Bo', 'Émile'),
              lastName: fc.constantFrom('Lee', 'Ng', '中村'),
            }),
          },
        ),
      );
    case 'group members add':
    case 'group members remove':
      return asBody(objectOf({ userIds: fc.array(uuid, { maxLength: 5 }) }));
    case 'comments':
      return asBody(
        objectOf({
          contents: fc.oneof(
            fc.string({ minLength: 1, maxLength: 200 }),
            nastyString,
            fc.integer({ min: 9_990, max: 10_010 }).map((n) => 'c'.repeat(n)),
          ),
        }),
      );
    case 'watchers add':
    case 'watchers remove':
      return asBody(objectOf({ users: fc.array(email, { maxLength: 5 }) }));
    case 'url-links':
      return asBody(
        objectOf({
          url: fc.oneof(
            fc.webUrl(),
            fc.constantFrom(
              'javascript:alert(1)',
              'data:text/html,hi',
              '/relative',
              'ftp://x.example/',
              'http://',
              'https://exa mple.com',
              `https://example.com/${'a'.repeat(5000)}`,
            ),
            nastyString,
          ),
          description: fc.oneof(fc.string({ maxLength: 1010 }), nastyString),
        }),
      );
    case 'related items':
      return asBody(
        objectOf({
          id: fc.oneof(
            fc.constantFrom(
              ...world.recordIds,
              world.selfId,
              'SUP-0',
              'SUP-99999999',
              'NOPE-1',
              'SUP-1e3',
            ),
            nastyString,
          ),
          alias: fc.constantFrom('support-tickets', 'customers', 'tasks', 'refunds', 'nope', ''),
        }),
      );
  }
}

export const BODY_ROUTES = [
  'records create',
  'records update',
  'users create',
  'group members add',
  'group members remove',
  'comments',
  'watchers add',
  'watchers remove',
  'url-links',
  'related items',
] as const;
export type BodyRoute = (typeof BODY_ROUTES)[number];
