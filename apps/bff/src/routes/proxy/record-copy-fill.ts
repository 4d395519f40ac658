// Where the per-session record copies come from: the replies the proxy streams anyway. A record
// read (`GET /{rt}/{alias}/{id}`) and a small search/list page (`GET /{rt}/{alias}?...`, items
// `{cursor, data}`) are teed while they stream to the browser: the bytes are collected beside the
// pipe (no delay, the pipe keeps its backpressure, compression works on the same bytes) and parsed
// once the last one went out. Any other answer to a write on a record forgets its copy.
import type { IncomingMessage } from 'node:http';

import { RecordTypeSchema } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { CopyFillLimits } from '../../lib/config.ts';
import type { RecordCopies, RecordKey } from './record-copies.ts';
import { jsonObject } from './proxy-history.ts';

/** One proxied answer, as far as the copies care. */
export type ObservedAnswer = {
  session: SessionRecord;
  method: string;
  /** The routed (decoded) path, `/api/v1/...`. */
  path: string;
  /** The query string, `?...` or empty. */
  search: string;
  status: number;
};

/** The handle field of a definition, for records without `id` (the hosted service). */
export type HandleFieldOf = (
  session: SessionRecord,
  recordType: string,
  alias: string,
) => Promise<string | undefined>;

const RECORD_TYPES = new Set<string>(RecordTypeSchema.options);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** Definitions' handle fields are looked up at most this often per definition. */
const HANDLE_FIELD_TTL_MS = 30_000;
const MAX_HANDLE_FIELDS = 1_000;

/**
 * The record (with `handle`) or the list of records (without) a path names, or undefined.
 *
 * @example
 * recordTarget('/api/v1/apps/support/SUP-1'); // { recordType: 'apps', alias: 'support', handle: 'SUP-1' }
 * recordTarget('/api/v1/apps/support/SUP-1/comment'); // undefined
 */
export function recordTarget(
  path: string,
): { recordType: string; alias: string; handle: string | undefined } | undefined {
  const [recordType, alias, handle, ...rest] = path.split('/').slice(3);
  if (!recordType || !RECORD_TYPES.has(recordType) || !alias || rest.length > 0) return undefined;
  if (handle === '') return undefined;
  return { recordType, alias, handle };
}

/**
 * A record's handle: `id` when present, else its definition's handle field (hosted).
 *
 * @example
 * handleOf({ 'Ticket ID': 'SUP-9', Title: 'x' }, 'Ticket ID'); // 'SUP-9'
 */
export function handleOf(
  record: Record<string, unknown>,
  field: string | undefined,
): string | undefined {
  const value = record['id'] ?? (field === undefined ? undefined : record[field]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Keeps each record of a list page (`bytes` long as JSON) as a copy of `session`'s, the ones
 * without a handle left out: what the proxy does with a page it passed on, and the sign-in with
 * the first page it read.
 *
 * @example
 * keepListCopies(copies, session.idHash, { recordType: 'apps', alias: 'support' }, records, 2048, undefined);
 */
export function keepListCopies(
  copies: RecordCopies,
  session: string,
  target: { recordType: string; alias: string },
  records: Record<string, unknown>[],
  bytes: number,
  field: string | undefined,
): void {
  if (records.length === 0) return;
  // Each record counts as its share of the page: no second serialisation per record.
  const share = Math.ceil(bytes / records.length);
  for (const record of records) {
    const handle = handleOf(record, field);
    if (handle) copies.put(session, { ...target, handle }, record, undefined, share);
  }
}

/** The `data` of each `{cursor, data}` item of a list page; undefined when it is no such page. */
function listRecords(page: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const items = page['items'];
  if (!Array.isArray(items)) return undefined;
  return items.flatMap((item: unknown) => {
    const data = jsonObjectValue((item as { data?: unknown } | null)?.data);
    return data ? [data] : [];
  });
}

function jsonObjectValue(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Fills the copies from proxied answers and forgets those a write made stale.
 *
 * @example
 * const filler = new RecordCopyFiller(copies, config.recordCopies, handleFieldOf, clock.now);
 * filler.observe(upstream, { session, method, path: c.req.path, search: url.search, status });
 */
export class RecordCopyFiller {
  private teeing = 0;
  private readonly handleFields = new Map<string, { field: string | undefined; at: number }>();

  constructor(
    private readonly copies: RecordCopies,
    private readonly limits: CopyFillLimits,
    private readonly handleFieldOf: HandleFieldOf,
    private readonly now: () => number,
  ) {}

  /**
   * Called with every answer that streams from the upstream, right before it is piped: a read
   * of records is teed; a write to a record that did not go through the capture (a DELETE, a
   * refused update) forgets the record's copy. Resolves once the answer's copies are kept.
   */
  observe(upstream: IncomingMessage, answer: ObservedAnswer): Promise<void> {
    const target = recordTarget(answer.path);
    if (!target) return Promise.resolve();
    const { handle } = target;
    if (answer.method !== 'GET') {
      if (answer.method !== 'HEAD' && handle !== undefined) {
        this.copies.drop(answer.session.idHash, { ...target, handle });
      }
      return Promise.resolve();
    }
    const max = this.teeable(upstream, answer, handle !== undefined);
    if (max === undefined) return Promise.resolve();
    // Looked up beside the upstream's answer (hosted lists only), not after it.
    const field = handle === undefined ? this.handleField(answer, target) : undefined;
    return this.tee(upstream, max).then(async (bytes) => {
      if (!bytes) return;
      if (handle !== undefined) this.fillRecord(answer, { ...target, handle }, bytes, upstream);
      else this.fillList(answer, target, bytes, await field);
    });
  }

  /** The most bytes to tee of this answer, or undefined when it is not kept at all. */
  private teeable(upstream: IncomingMessage, answer: ObservedAnswer, single: boolean) {
    if (answer.status < 200 || answer.status >= 300 || (single && answer.search !== '')) return;
    const encoding = upstream.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return;
    if (!JSON_TYPE.test(upstream.headers['content-type'] ?? '')) return;
    const max = single ? this.limits.maxRecordBytes : this.limits.maxListBytes;
    const declared = Number(upstream.headers['content-length'] ?? 0);
    if (declared > max || declared > this.limits.teeBytesTotal - this.teeing) return;
    return max;
  }

  /**
   * Collect the bytes beside the pipe, up to `max` and the process's tee budget: resolves them
   * once the last one went out (undefined when the answer was cut off or grew too large).
   */
  private tee(upstream: IncomingMessage, max: number): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let held = 0;
      const release = () => {
        this.teeing -= held;
        held = 0;
        chunks.length = 0;
        upstream.off('data', collect);
      };
      const collect = (chunk: Buffer) => {
        if (held + chunk.length > max || this.teeing + chunk.length > this.limits.teeBytesTotal) {
          release();
          return;
        }
        chunks.push(chunk);
        held += chunk.length;
        this.teeing += chunk.length;
      };
      upstream.on('data', collect);
      upstream.once('end', () => {
        const bytes = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        release();
        resolve(bytes);
      });
      upstream.once('close', () => {
        release();
        resolve(undefined);
      });
    });
  }

  private fillRecord(
    answer: ObservedAnswer,
    key: RecordKey,
    bytes: Buffer,
    upstream: IncomingMessage,
  ) {
    const record = jsonObject(bytes.toString('utf8'));
    if (!record) return;
    const etag = upstream.headers.etag;
    this.copies.put(answer.session.idHash, key, record, etag, bytes.length);
  }

  private fillList(
    answer: ObservedAnswer,
    target: { recordType: string; alias: string },
    bytes: Buffer,
    field: string | undefined,
  ) {
    const page = jsonObject(bytes.toString('utf8'));
    const records = page ? listRecords(page) : undefined;
    if (records)
      keepListCopies(this.copies, answer.session.idHash, target, records, bytes.length, field);
  }

  /** The definition's handle field, looked up once per definition and region a while. */
  private async handleField(
    answer: ObservedAnswer,
    target: { recordType: string; alias: string },
  ): Promise<string | undefined> {
    if (answer.session.profile !== 'hosted') return undefined;
    const name = `${answer.session.region}\u0000${target.recordType}\u0000${target.alias}`;
    const known = this.handleFields.get(name);
    if (known && this.now() - known.at < HANDLE_FIELD_TTL_MS) return known.field;
    const field = await this.handleFieldOf(answer.session, target.recordType, target.alias).catch(
      () => undefined,
    );
    if (this.handleFields.size >= MAX_HANDLE_FIELDS) this.handleFields.clear();
    this.handleFields.set(name, { field, at: this.now() });
    return field;
  }
}
