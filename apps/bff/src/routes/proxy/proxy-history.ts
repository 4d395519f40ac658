// Which proxied writes change a record, and what each one changed: the pure half of the record
// history's capture (ADR 0024). The proxy asks `capturePlan` for every request; anything it does
// not name (every read, every other write) keeps the streaming path untouched.
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';

import { RecordTypeSchema } from '@wsc/api-client';
import { CHANGE_SOURCE_PATTERN } from '@wsc/api-client/bff-history';

import type { FieldChange, RecordChangeKind } from '../../lib/record-changes.ts';

/** What the proxy does for one captured write. */
export type CapturePlan = {
  recordType: string;
  alias: string;
  /** Absent for a create: the id comes from the reply. */
  recordId: string | undefined;
  kind: RecordChangeKind;
  /** The related item or attachment a DELETE names. */
  target: string | undefined;
  /** Watchers: a DELETE removes the users its body lists, a POST adds them. */
  removes: boolean;
  /** A small body (JSON or comment text) read whole to know what the write sets; never an upload. */
  readsBody: boolean;
  /** An update reads the record first (same token) for the values before. */
  readsBefore: boolean;
};

const RECORD_TYPES = new Set<string>(RecordTypeSchema.options);

/**
 * The capture plan of a proxied request, or undefined when it is not a record-changing write.
 * `path` is the routed (decoded) path, `/api/v1/...`.
 *
 * @example
 * capturePlan('PUT', '/api/v1/apps/support/SUP-1')?.kind; // 'updated'
 * capturePlan('GET', '/api/v1/apps/support/SUP-1'); // undefined
 */
export function capturePlan(method: string, path: string): CapturePlan | undefined {
  if (method !== 'POST' && method !== 'PUT' && method !== 'DELETE') return undefined;
  const segments = path.split('/').slice(3);
  const [recordType, alias, recordId, sub, subId, ...rest] = segments;
  if (!recordType || !RECORD_TYPES.has(recordType) || !alias || rest.length > 0) return undefined;
  const plan = (
    kind: RecordChangeKind,
    extra: Partial<Pick<CapturePlan, 'target' | 'readsBody' | 'readsBefore'>> = {},
  ): CapturePlan => ({
    recordType,
    alias,
    recordId,
    kind,
    target: extra.target,
    removes: method === 'DELETE',
    readsBody: extra.readsBody ?? false,
    readsBefore: extra.readsBefore ?? false,
  });
  if (recordId === undefined)
    return method === 'POST' ? plan('created', { readsBody: true }) : undefined;
  if (!recordId) return undefined;
  if (sub === undefined) {
    return method === 'PUT' ? plan('updated', { readsBody: true, readsBefore: true }) : undefined;
  }
  if (sub === 'related-items') {
    if (subId === undefined && method === 'POST')
      return plan('related-item-added', { readsBody: true });
    if (subId && method === 'DELETE') return plan('related-item-removed', { target: subId });
    return undefined;
  }
  if (sub === 'attachments') {
    // An upload streams as it always did: the file's name comes from the reply.
    if (subId === undefined && method === 'POST') return plan('attachment-added');
    if (subId === 'url-links' && method === 'POST')
      return plan('attachment-added', { readsBody: true });
    if (subId && subId !== 'url-links' && method === 'DELETE') {
      return plan('attachment-removed', { target: subId });
    }
    return undefined;
  }
  if (sub === 'watchers' && subId === undefined && (method === 'POST' || method === 'DELETE')) {
    return plan('watchers-changed', { readsBody: true });
  }
  if (sub === 'comment' && subId === undefined && method === 'POST') {
    return plan('comment-added', { readsBody: true });
  }
  return undefined;
}

/**
 * The source a write is recorded with: the console's `X-Change-Source` when it matches the
 * strict pattern, else `console`. The header itself never goes upstream.
 *
 * @example
 * changeSource('triage'); // 'triage'
 * changeSource('<script>'); // 'console'
 */
export function changeSource(header: string | null | undefined): string {
  return header && CHANGE_SOURCE_PATTERN.test(header) ? header : 'console';
}

/**
 * A stream read whole, unless it holds more than `max` bytes: then the bytes read so far and
 * `over: true`. With `keepRest`, the rest of an over-long stream is piped into `rest` before the
 * read stops, so no chunk is lost to another 'data' listener (an idle watch) while nobody reads.
 */
export async function readUpTo(
  stream: Readable,
  max: number,
  options: { keepRest?: boolean } = {},
): Promise<{ chunks: Buffer[]; bytes: number; over: boolean; rest?: Readable }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  // Left open when it stops early: the rest is still the caller's to stream on.
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<
    Buffer | string
  >) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    bytes += buffer.length;
    if (bytes > max) {
      // Piped while the iterator still holds the stream: when it lets go, the stream flows here.
      const rest = options.keepRest ? stream.pipe(new PassThrough()) : undefined;
      if (rest) stream.once('error', (error) => rest.destroy(error));
      return { chunks, bytes, over: true, rest };
    }
  }
  return { chunks, bytes, over: false };
}

/** JSON text as an object, or undefined (not JSON, or not an object). */
export function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A field value as the console shows it (ADR 0024 compares values as text, as RecordSchema reads them). */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => String(item)).join(',');
  return JSON.stringify(value);
}

const list = (value: unknown): string | null =>
  Array.isArray(value) && value.length > 0 ? value.map((v) => String(v)).join(', ') : null;

/**
 * What a write the upstream accepted changed, as field changes. `body` is the request body's text
 * (for plans that read it), `reply` the upstream's answer as an object, `before` the record as read
 * before an update, `reread` the record read again when the reply lacked a changed field.
 *
 * @example
 * changedFields(plan, { body: '{"Status":"Closed"}', before: { Status: 'New' }, reply: { Status: 'Closed' } });
 * // [{ field: 'Status', before: 'New', after: 'Closed' }]
 */
export function changedFields(
  plan: CapturePlan,
  input: {
    body?: string | undefined;
    reply?: Record<string, unknown> | undefined;
    before?: Record<string, unknown> | undefined;
    reread?: Record<string, unknown> | undefined;
  },
): FieldChange[] {
  const body = plan.kind === 'comment-added' ? undefined : jsonObject(input.body);
  const reply = input.reply;
  switch (plan.kind) {
    case 'created':
      return Object.keys(body ?? {})
        .map((field) => ({
          field,
          before: null,
          after: reply && field in reply ? reply[field] : body?.[field],
        }))
        .filter((change) => asText(change.after) !== '');
    case 'updated':
      return Object.keys(body ?? {}).flatMap((field) => {
        const after =
          reply && field in reply
            ? reply[field]
            : input.reread && field in input.reread
              ? input.reread[field]
              : body?.[field];
        // Without the values before (the read failed), every field sent is kept: it may have changed.
        const before = input.before ? (input.before[field] ?? null) : null;
        if (input.before && asText(before) === asText(after)) return [];
        return [{ field, before, after: after ?? null }];
      });
    case 'related-item-added': {
      const id = asText(body?.['id']);
      const alias = asText(body?.['alias']);
      return [{ field: 'Related item', before: null, after: alias ? `${alias}/${id}` : id }];
    }
    case 'related-item-removed':
      return [{ field: 'Related item', before: plan.target ?? null, after: null }];
    case 'attachment-added': {
      // A link's URL; an upload's file name from the reply (the hosted API answers 202 without one).
      const after = body
        ? asText(reply?.['url'] ?? body['url'])
        : asText(reply?.['name'] ?? reply?.['id']) || 'A file';
      return [{ field: 'Attachment', before: null, after }];
    }
    case 'attachment-removed':
      return [{ field: 'Attachment', before: plan.target ?? null, after: null }];
    case 'watchers-changed': {
      const users = list(body?.['users']);
      return plan.removes
        ? [{ field: 'Watchers removed', before: users, after: null }]
        : [{ field: 'Watchers added', before: null, after: users }];
    }
    case 'comment-added':
      return input.body ? [{ field: 'Comment', before: null, after: input.body }] : [];
  }
}
