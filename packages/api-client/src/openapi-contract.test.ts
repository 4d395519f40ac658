// Our zod contract against the hosted API's published OpenAPI (the repo's copy in reference/):
// 1. every reply that document allows parses with the tolerant schemas clients use: its examples,
//    and samples generated from its schemas with optional keys dropped at random;
// 2. the strict shapes our own API promises (`./strict`) use the published property names, except
//    the documented extensions, so a rename on either side fails here.
import type { z } from 'zod';
import { JSONSchemaFaker } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';

import type { OpenApiSchema } from './testing/openapi.ts';
import {
  CommentPagedListSchema,
  CommentSchema,
  WatcherListInputSchema,
  WatcherPagedListSchema,
  WatcherSchema,
} from './schemas/activity.ts';
import {
  AttachmentListSchema,
  AttachmentSchema,
  UrlLinkInputSchema,
  UrlLinkSchema,
} from './schemas/attachments.ts';
import { PagingSchema } from './schemas/common.ts';
import { GroupPagedListSchema, GroupSchema, GroupUserIdsInputSchema } from './schemas/groups.ts';
import {
  AspectSchema,
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
import * as strict from './strict/index.ts';
import {
  coerce,
  componentExample,
  componentSchema,
  deref,
  parseJavaMap,
} from './testing/openapi.ts';

/**
 * Each published reply schema and the tolerant schema that reads it. `essential`: the keys a
 * client cannot work without (the id it links or writes by); a reply without one must fail, and
 * the error must name that key.
 */
const replies: { hosted: string; ours: z.ZodType; essential?: string[] }[] = [
  { hosted: 'User', ours: UserSchema, essential: ['id'] },
  { hosted: 'UserPagedList', ours: UserPagedListSchema, essential: ['id'] },
  { hosted: 'Group', ours: GroupSchema, essential: ['id'] },
  { hosted: 'GroupPagedList', ours: GroupPagedListSchema, essential: ['id'] },
  { hosted: 'Comment', ours: CommentSchema, essential: ['id'] },
  { hosted: 'CommentPagedList', ours: CommentPagedListSchema, essential: ['id'] },
  { hosted: 'Watcher', ours: WatcherSchema },
  { hosted: 'WatcherPagedList', ours: WatcherPagedListSchema },
  { hosted: 'Attachment', ours: AttachmentSchema, essential: ['id'] },
  { hosted: 'AttachmentList', ours: AttachmentListSchema, essential: ['id'] },
  { hosted: 'AttachmentLink', ours: UrlLinkSchema },
  { hosted: 'Record', ours: RecordSchema },
  { hosted: 'RecordListItem', ours: RecordListItemSchema },
  { hosted: 'RecordPagedList', ours: RecordPagedListSchema },
  { hosted: 'RelatedListItem', ours: RelatedItemSchema, essential: ['id'] },
  { hosted: 'RelatedPagedList', ours: RelatedPagedListSchema, essential: ['id'] },
  { hosted: 'PagingState', ours: PagingSchema },
  { hosted: 'AccessTokenResponse', ours: TokenResponseSchema, essential: ['access_token'] },
  { hosted: 'Aspect', ours: AspectSchema },
];

/**
 * Essential keys the sample lacks: on the object itself, or on each item of a list (a bare array
 * or a paged list's `items`), never deeper (a group's domains have ids nobody needs).
 */
function missingEssentials(sample: unknown, schema: OpenApiSchema, essential: string[]): string[] {
  let objects: unknown[] = [sample];
  if (schema.type === 'array') objects = Array.isArray(sample) ? sample : [];
  else if (schema.properties?.['items']?.type === 'array') {
    const items = (sample as { items?: unknown } | null)?.items;
    objects = Array.isArray(items) ? items : [];
  }
  return objects.flatMap((item) =>
    typeof item === 'object' && item !== null
      ? essential.filter((key) => (item as Record<string, unknown>)[key] === undefined)
      : essential,
  );
}

/** A small seeded generator, so a failing sample is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('every reply the published contract allows parses', () => {
  it.each(replies.map((r) => [r.hosted, r] as const))(
    '%s: the published example',
    (name, reply) => {
      const example = componentExample(name);
      if (example === undefined) return expect(componentSchema(name).example).toBeUndefined();
      const result = reply.ours.safeParse(example);
      expect(result.error?.issues ?? []).toEqual([]);
    },
  );

  it('the examples hold what the review found rejected before (a Group without domains, ...)', () => {
    expect(GroupSchema.parse(componentExample('Group'))).toMatchObject({
      name: 'Engineering',
      domains: [],
    });
    expect(CommentSchema.parse(componentExample('Comment')).createdBy).toMatchObject({
      email: 'jane@example.com',
    });
    const watchers = WatcherPagedListSchema.parse(componentExample('WatcherPagedList'));
    expect(watchers.items.map((w) => w.target.type)).toContain('Group');
    expect(RecordSchema.parse(componentExample('Record'))).toMatchObject({ Status: 'In Progress' });
    expect(TokenResponseSchema.parse(componentExample('AccessTokenResponse'))).toEqual({
      access_token: '2YotnFZFEjr1zCsicMWpAA',
      token_type: 'Bearer',
      expires_in: 3600,
    });
  });

  // 0: only what a schema requires (nothing, for replies); 1: every key; 0.5: a random half.
  it.each([0, 0.5, 1])('samples generated from every schema, optional keys kept at p=%s', (p) => {
    for (const reply of replies) {
      const schema = deref(componentSchema(reply.hosted));
      for (let i = 0; i < 40; i++) {
        JSONSchemaFaker.option({
          alwaysFakeOptionals: p === 1,
          optionalsProbability: p,
          fixedProbabilities: true,
          useDefaultValue: false,
          random: seeded(i * 7919 + Math.round(p * 100)),
        });
        const sample: unknown = JSONSchemaFaker.generate(schema as never);
        const missing = missingEssentials(sample, schema, reply.essential ?? []);
        const result = reply.ours.safeParse(sample);
        const label = `${reply.hosted} ${JSON.stringify(sample)}`;
        const list = schema.type === 'array' || schema.properties?.['items']?.type === 'array';
        if (missing.length === 0) {
          expect(result.error?.issues ?? [], label).toEqual([]);
        } else if (!list) {
          // A single object without an essential key fails, and the error names it.
          expect(result.success, label).toBe(false);
          const paths = (result.error?.issues ?? []).map((issue) => issue.path.at(-1));
          for (const key of missing) expect(paths, label).toContain(key);
        } else {
          // In a list, such an item is left out and counted; the rest of the page still reads.
          expect(result.error?.issues ?? [], label).toEqual([]);
          const data = result.data as { skipped?: number; skippedReason?: string } | unknown[];
          if (Array.isArray(data)) {
            expect(data.length, label).toBe((sample as unknown[]).length - missing.length);
          } else {
            expect(data.skipped, label).toBe(missing.length);
            expect(data.skippedReason, label).toContain(missing[0]);
          }
        }
      }
    }
  });

  it('tolerates what real services send: nulls, numbers as text, lower-case states', () => {
    expect(
      UserSchema.parse({ id: 'u1', firstName: null, lastName: 'Doe', status: 'inactive' }),
    ).toEqual({ id: 'u1', email: '', firstName: '', lastName: 'Doe', status: 'INACTIVE' });
    expect(RecordSchema.parse({ Title: 'x', Priority: 2, Done: false, Due: null })).toEqual({
      Title: 'x',
      Priority: '2',
      Done: 'false',
      Due: '',
    });
    expect(
      AttachmentSchema.parse({ id: 'a', name: 'f.pdf', state: 'processing', size: '12' }),
    ).toMatchObject({ state: 'PROCESSING', size: 12, contentUrl: null, description: null });
    expect(TokenResponseSchema.parse({ access_token: 't', expires_in: '120' })).toEqual({
      access_token: 't',
      token_type: 'Bearer',
      expires_in: 120,
    });
    expect(UserPagedListSchema.parse({ items: [] })).toEqual({
      paging: {
        has_previous_page: false,
        start_cursor: null,
        end_cursor: null,
        has_next_page: false,
      },
      total: undefined,
      items: [],
      skipped: 0,
    });
  });

  it('names the essential key when it is missing: fails an object, skips a list item', () => {
    const single = UserSchema.safeParse({ email: 'a@b.c' });
    expect(single.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['id']);
    const page = UserPagedListSchema.parse({ items: [{ email: 'a@b.c' }, { id: 'u2' }] });
    expect(page.items.map((user) => user.id)).toEqual(['u2']);
    expect(page.skipped).toBe(1);
    expect(page.skippedReason).toMatch(/^item 0: id: /);
  });
});

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * Our API's strict shapes against the published property names. `extensions`: ours only
 * (documented in docs/api.md); `omitted`: published only.
 */
const contract: {
  hosted: string;
  ours: AnyObject;
  extensions?: Record<string, string>;
  omitted?: Record<string, string>;
  input?: boolean;
}[] = [
  { hosted: 'User', ours: strict.UserSchema },
  { hosted: 'Group', ours: strict.GroupSchema },
  { hosted: 'GroupDomain', ours: strict.GroupDomainSchema },
  { hosted: 'Comment', ours: strict.CommentSchema },
  { hosted: 'Watcher', ours: strict.WatcherSchema },
  {
    hosted: 'Attachment',
    ours: strict.AttachmentSchema,
    extensions: {
      sha256: 'hex sha256 of the stored bytes',
      url: 'target of a URL link (mediaType text/uri-list)',
      createdBy: 'email of the uploader',
    },
  },
  {
    hosted: 'AttachmentLink',
    ours: strict.UrlLinkSchema,
    extensions: { id: 'the id of the created link, so it can be removed' },
  },
  { hosted: 'AttachmentLink', ours: UrlLinkInputSchema, input: true },
  { hosted: 'RelatedListItem', ours: strict.RelatedItemSchema },
  { hosted: 'RelatedItemInput', ours: RelatedItemInputSchema, input: true },
  { hosted: 'PagingState', ours: strict.PagingSchema },
  { hosted: 'RecordListItem', ours: strict.RecordListItemSchema },
  { hosted: 'RecordPagedList', ours: strict.RecordPagedListSchema },
  { hosted: 'RelatedPagedList', ours: strict.RelatedPagedListSchema },
  { hosted: 'UserPagedList', ours: strict.UserPagedListSchema },
  { hosted: 'GroupPagedList', ours: strict.GroupPagedListSchema },
  { hosted: 'CommentPagedList', ours: strict.CommentPagedListSchema },
  { hosted: 'WatcherPagedList', ours: strict.WatcherPagedListSchema },
  { hosted: 'CreateUserInput', ours: CreateUserInputSchema, input: true },
  { hosted: 'GroupUserIdsInput', ours: GroupUserIdsInputSchema, input: true },
  { hosted: 'WatcherListInput', ours: WatcherListInputSchema, input: true },
  { hosted: 'AccessTokenRequest', ours: TokenRequestSchema, input: true },
  {
    hosted: 'AccessTokenResponse',
    ours: strict.TokenResponseSchema,
    omitted: { grant_type: 'listed as required by the document, but no token reply carries it' },
  },
];

const keys = (schema: AnyObject) => Object.keys(schema.shape).sort();
const isOptional = (schema: z.ZodType) => schema.safeParse(undefined).success;

describe('our API against the published names', () => {
  it.each(contract.map((c) => [`${c.hosted} ~ ${c.input ? 'input' : 'output'}`, c] as const))(
    '%s: same property names (plus documented extensions)',
    (_label, c) => {
      const theirs = Object.keys(componentSchema(c.hosted).properties ?? {});
      const expected = [
        ...theirs.filter((name) => !(name in (c.omitted ?? {}))),
        ...Object.keys(c.extensions ?? {}),
      ].sort();
      expect(keys(c.ours)).toEqual(expected);
    },
  );

  it('WatcherTarget: a user target and a group target, together the published names', () => {
    const options = strict.WatcherTargetSchema.options as unknown as AnyObject[];
    const ours = [...new Set(options.flatMap(keys))].sort();
    expect(ours).toEqual(Object.keys(componentSchema('WatcherTarget').properties ?? {}).sort());
  });

  it.each(contract.filter((c) => c.input).map((c) => [c.hosted, c] as const))(
    '%s: what the hosted API requires, we require too',
    (_name, c) => {
      for (const name of componentSchema(c.hosted).required ?? []) {
        const field = c.ours.shape[name];
        expect(field, name).toBeDefined();
        expect(isOptional(field as z.ZodType), `${c.hosted}.${name} optional`).toBe(false);
      }
    },
  );

  it('Record is a flat map of strings; AttachmentList a bare array of Attachment', () => {
    expect(componentSchema('Record').additionalProperties).toEqual({ type: 'string' });
    expect(componentSchema('AttachmentList')).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Attachment' },
    });
    expect(AttachmentListSchema.safeParse({ items: [] }).success).toBe(false);
  });

  it('field types are exactly AspectFieldType', () => {
    expect([...FieldTypeSchema.options].sort()).toEqual(
      [...(componentSchema('AspectFieldType').enum ?? [])].sort(),
    );
  });

  it('reads Java map examples (nested maps, lists, commas inside values) and their types', () => {
    expect(parseJavaMap('{a=1, b={c=x, y}, d=[p, q], e=}')).toEqual({
      a: '1',
      b: { c: 'x, y' },
      d: ['p', 'q'],
      e: '',
    });
    expect(
      coerce(
        { total: '2', paging: { has_next_page: 'false' } },
        deref(componentSchema('UserPagedList')),
      ),
    ).toEqual({ total: 2, paging: { has_next_page: false } });
  });
});
