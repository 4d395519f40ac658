// Guards our zod contract against drift from the hosted API's published OpenAPI (Elementum): every
// hosted schema's property names must match ours, except the deliberate differences listed below,
// and every hosted example must use only names we know. A rename on either side fails here.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';

import {
  CommentPagedListSchema,
  CommentSchema,
  WatcherListInputSchema,
  WatcherPagedListSchema,
  WatcherSchema,
  WatcherTargetSchema,
} from './schemas/activity.ts';
import {
  AttachmentListSchema,
  AttachmentSchema,
  UrlLinkInputSchema,
  UrlLinkSchema,
} from './schemas/attachments.ts';
import { PagingSchema } from './schemas/common.ts';
import {
  GroupDomainSchema,
  GroupPagedListSchema,
  GroupSchema,
  GroupUserIdsInputSchema,
} from './schemas/groups.ts';
import {
  FieldTypeSchema,
  RecordListItemSchema,
  RecordPagedListSchema,
  RecordSchema,
  RelatedItemInputSchema,
  RelatedItemSchema,
  RelatedPagedListSchema,
} from './schemas/records.ts';
import { TokenRequestSchema, TokenResponseSchema } from './schemas/token.ts';
import { CreateUserInputSchema, UserPagedListSchema, UserSchema } from './schemas/users.ts';

// packages/api-client/src -> /work/main -> /work, where shared/ lives beside the repository.
const specUrl = new URL('../../../../shared/reference/elementum-openapi.json', import.meta.url);

interface OpenApiSchema {
  type?: string;
  properties?: Record<string, OpenApiSchema & { $ref?: string }>;
  items?: OpenApiSchema & { $ref?: string };
  required?: string[];
  enum?: string[];
  additionalProperties?: unknown;
  example?: unknown;
}
const spec = JSON.parse(readFileSync(specUrl, 'utf8')) as {
  components: { schemas: Record<string, OpenApiSchema> };
};
const hosted = (name: string): OpenApiSchema => {
  const schema = spec.components.schemas[name];
  if (!schema) throw new Error(`The hosted OpenAPI no longer defines ${name}`);
  return schema;
};

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * Deliberate differences, each with its reason. `extensions`: ours only (documented in docs/api.md);
 * `omitted`: hosted only.
 */
const contract: {
  hosted: string;
  ours: AnyObject;
  extensions?: Record<string, string>;
  omitted?: Record<string, string>;
  input?: boolean;
}[] = [
  { hosted: 'User', ours: UserSchema },
  { hosted: 'Group', ours: GroupSchema },
  { hosted: 'GroupDomain', ours: GroupDomainSchema },
  { hosted: 'Comment', ours: CommentSchema },
  { hosted: 'Watcher', ours: WatcherSchema },
  {
    hosted: 'WatcherTarget',
    ours: WatcherTargetSchema,
    omitted: {
      name: 'Group targets (their `name`) are out of scope: DESIGN.md lists User watchers only',
    },
  },
  {
    hosted: 'Attachment',
    ours: AttachmentSchema,
    extensions: {
      sha256: 'hex sha256 of the stored bytes',
      url: 'target of a URL link (mediaType text/uri-list)',
      createdBy: 'email of the uploader',
    },
  },
  {
    hosted: 'AttachmentLink',
    ours: UrlLinkSchema,
    extensions: { id: 'the id of the created link, so it can be removed' },
  },
  { hosted: 'AttachmentLink', ours: UrlLinkInputSchema, input: true },
  { hosted: 'RelatedListItem', ours: RelatedItemSchema },
  { hosted: 'RelatedItemInput', ours: RelatedItemInputSchema, input: true },
  { hosted: 'PagingState', ours: PagingSchema },
  { hosted: 'RecordListItem', ours: RecordListItemSchema },
  { hosted: 'RecordPagedList', ours: RecordPagedListSchema },
  { hosted: 'RelatedPagedList', ours: RelatedPagedListSchema },
  { hosted: 'UserPagedList', ours: UserPagedListSchema },
  { hosted: 'GroupPagedList', ours: GroupPagedListSchema },
  { hosted: 'CommentPagedList', ours: CommentPagedListSchema },
  { hosted: 'WatcherPagedList', ours: WatcherPagedListSchema },
  { hosted: 'CreateUserInput', ours: CreateUserInputSchema, input: true },
  { hosted: 'GroupUserIdsInput', ours: GroupUserIdsInputSchema, input: true },
  { hosted: 'WatcherListInput', ours: WatcherListInputSchema, input: true },
  { hosted: 'AccessTokenRequest', ours: TokenRequestSchema, input: true },
  { hosted: 'AccessTokenResponse', ours: TokenResponseSchema },
];

/**
 * The hosted examples are mostly Java `Map.toString()` text (`{id=1, target={...}, tags=[a, b]}`),
 * not JSON; this reads them into plain objects (leaf values stay strings) so their keys can be checked.
 */
function parseJavaMap(text: string): unknown {
  let i = 0;
  const value = (terminators: string): unknown => {
    if (text[i] === '{') return map();
    if (text[i] === '[') return list();
    const start = i;
    while (i < text.length) {
      const ch = text[i] ?? '';
      if (terminators.includes(ch)) break;
      // A comma ends a map value only when a `key=` follows (values may contain commas).
      if (ch === ',' && (terminators.includes(']') || /^, [\w ]+=/.test(text.slice(i)))) break;
      i++;
    }
    return text.slice(start, i);
  };
  const map = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++; // {
    while (text[i] !== '}') {
      const eq = text.indexOf('=', i);
      const key = text.slice(i, eq).trim();
      i = eq + 1;
      out[key] = value('}');
      if (text[i] === ',') i += 2;
    }
    i++;
    return out;
  };
  const list = (): unknown[] => {
    const out: unknown[] = [];
    i++; // [
    while (text[i] !== ']') {
      out.push(value(',]'));
      if (text[i] === ',') i += 2;
    }
    i++;
    return out;
  };
  return value('');
}

function example(name: string): Record<string, unknown> | undefined {
  const raw = hosted(name).example;
  if (raw === undefined) return undefined;
  return (typeof raw === 'string' ? parseJavaMap(raw) : raw) as Record<string, unknown>;
}

const keys = (schema: AnyObject) => Object.keys(schema.shape).sort();
const isOptional = (schema: z.ZodType) => schema.safeParse(undefined).success;

describe('hosted OpenAPI contract', () => {
  it.each(contract.map((c) => [`${c.hosted} ~ ${c.input ? 'input' : 'output'}`, c] as const))(
    '%s: same property names (plus documented extensions)',
    (_label, c) => {
      const theirs = Object.keys(hosted(c.hosted).properties ?? {});
      const expected = [
        ...theirs.filter((name) => !(name in (c.omitted ?? {}))),
        ...Object.keys(c.extensions ?? {}),
      ].sort();
      expect(keys(c.ours)).toEqual(expected);
    },
  );

  it.each(contract.filter((c) => c.input).map((c) => [c.hosted, c] as const))(
    '%s: what the hosted API requires, we require too',
    (_name, c) => {
      for (const name of hosted(c.hosted).required ?? []) {
        const field = c.ours.shape[name];
        expect(field, name).toBeDefined();
        expect(isOptional(field as z.ZodType), `${c.hosted}.${name} optional`).toBe(false);
      }
    },
  );

  it.each(contract.filter((c) => !c.omitted).map((c) => [c.hosted, c] as const))(
    '%s: the hosted example uses only names we know',
    (_name, c) => {
      const sample = example(c.hosted);
      if (!sample) return; // PagingState, Watcher, ...: no example, the property list above covers them
      expect(Object.keys(sample).length).toBeGreaterThan(0);
      const known = new Set(keys(c.ours));
      for (const key of Object.keys(sample))
        expect(known.has(key), `${c.hosted}.${key}`).toBe(true);
    },
  );

  it('paged list examples: items use the item schema names', () => {
    const itemKeys = (schema: AnyObject) => {
      const items = schema.shape['items'] as z.ZodArray<AnyObject>;
      return new Set(keys(items.element));
    };
    for (const [name, schema] of [
      ['RecordPagedList', RecordPagedListSchema],
      ['RelatedPagedList', RelatedPagedListSchema],
    ] as const) {
      const sample = example(name) as {
        items: Record<string, unknown>[];
        paging: Record<string, unknown>;
      };
      expect(Object.keys(sample.paging).sort()).toEqual(keys(PagingSchema));
      const known = itemKeys(schema as unknown as AnyObject);
      for (const item of sample.items)
        for (const key of Object.keys(item)) expect(known.has(key), key).toBe(true);
    }
    // Watchers: the hosted example mixes in a Group target, which we do not support (see above).
    const watchers = example('WatcherPagedList') as {
      items: { target: Record<string, unknown> }[];
    };
    const userTarget = watchers.items.find((w) => w.target['type'] === 'User');
    expect(Object.keys(userTarget?.target ?? {}).sort()).toEqual(keys(WatcherTargetSchema));
  });

  it('Record is a flat map of strings; its example parses', () => {
    expect(hosted('Record').additionalProperties).toEqual({ type: 'string' });
    expect(RecordSchema.safeParse(hosted('Record').example).success).toBe(true);
  });

  it('AttachmentList is a bare array of Attachment', () => {
    expect(hosted('AttachmentList')).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Attachment' },
    });
    expect(AttachmentListSchema.safeParse([]).success).toBe(true);
    expect(AttachmentListSchema.safeParse({ items: [] }).success).toBe(false);
  });

  it('field types are exactly AspectFieldType', () => {
    expect([...FieldTypeSchema.options].sort()).toEqual(
      [...(hosted('AspectFieldType').enum ?? [])].sort(),
    );
  });

  it('reads Java map examples (nested maps, lists, commas inside values)', () => {
    expect(parseJavaMap('{a=1, b={c=x, y}, d=[p, q], e=}')).toEqual({
      a: '1',
      b: { c: 'x, y' },
      d: ['p', 'q'],
      e: '',
    });
  });
});
