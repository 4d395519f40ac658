// A captured write's path through the proxy (the record history, ADR 0024): its body read whole,
// the values before an update from the session's record copy or one read, the hosted conflict
// check (ADR 0029), the reply read up to the API's record size, and the copy kept current. What
// is held in memory is bounded: bodies and replies by the API's record size, and at most a few
// captured writes per region at once (the others wait their turn, holding nothing yet).
import { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { OutgoingHttpHeaders } from 'node:http';

import type { Definition } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { FieldChange } from '../../lib/record-changes.ts';
import type { UpstreamAgents } from '../../lib/upstream-pool.ts';
import type { PoolSlot, WaitingPool } from '../../lib/waiting-pool.ts';
import type { HeldValues } from './held-values.ts';
import type { CapturePlan } from './proxy-history.ts';
import type { RecordCopies, RecordKey } from './record-copies.ts';
import { MAX_JSON_BODY_BYTES } from '../../lib/config.ts';
import { ProblemException, problemResponse } from '../../lib/errors.ts';
import { holdValues, withoutUnchanged } from './held-values.ts';
import {
  BASE_VALUES_HEADER,
  checkedChanges,
  conflictingFields,
  parseBaseValues,
  staleRecordResponse,
  wholeRecordBody,
} from './proxy-conflict.ts';
import { exchange, watchResponseIdle } from './proxy-exchange.ts';
import { changedFields, jsonObject, readUpTo } from './proxy-history.ts';
import { isBodyless, webHeaders } from './proxy-rules.ts';
import { handleOf } from './record-copy-fill.ts';

/**
 * A captured reply (and a record read for one) is held up to this many bytes: the API's record
 * size, as its JSON bodies are limited to 1 MiB. A larger reply streams on, kept without it.
 */
export const MAX_CAPTURED_BYTES = MAX_JSON_BODY_BYTES;

export type CaptureDeps = {
  config: BffConfig;
  agents: UpstreamAgents;
  random: () => number;
  copies: RecordCopies;
  /** Captured writes that read their body, per region. */
  pool: WaitingPool;
  /** The definition of a record type (read-only fields and handle field of the whole-record PUT). */
  definitionOf?: (
    session: SessionRecord,
    recordType: string,
    alias: string,
  ) => Promise<Definition | undefined>;
  /** The handle field of a definition, for a create whose reply has no `id` (hosted). */
  handleFieldOf?: (
    session: SessionRecord,
    recordType: string,
    alias: string,
  ) => Promise<string | undefined>;
};

export type CaptureRequest = {
  session: SessionRecord;
  plan: CapturePlan;
  /** The upstream URL of the write. */
  url: URL;
  method: string;
  requestId: string;
  /** The browser's request headers. */
  headers: Headers;
  clientSignal: AbortSignal;
  /** The request body, when the request has one; taken only to be read whole (never an upload's). */
  body: (() => Readable | undefined) | undefined;
  upload: boolean;
};

/** What a captured write that the upstream accepted changed, and the answer for the browser. */
export type CaptureResult = {
  recordId: string | undefined;
  fields: FieldChange[];
  response: Response;
  /** The reply was too large to hold: the answer streams the rest from the upstream. */
  streams: boolean;
};

type StoredRead = { record: Record<string, unknown> };

const NO_SLOT: PoolSlot = { release() {} };

/** An answer made from a reply already read (a captured write's): headers as every answer's. */
function bufferedResponse(
  status: number,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Readable | Buffer,
): Response {
  // A streamed rest has no length of its own to promise.
  const out = webHeaders(headers, Buffer.isBuffer(body) ? undefined : 'content-length');
  if (isBodyless(method, status)) return new Response(null, { status, headers: out });
  const stream = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    status,
    headers: out,
  });
}

/**
 * Start a captured write: check `X-Base-Values` (400 when malformed), wait for a place in the
 * region's pool and read the body whole (a small JSON or comment body; an upload streams and
 * takes no place). A browser that leaves meanwhile gets the 499 the log names.
 *
 * @example
 * const capture = await openCapture(deps, { session, plan, url, method, requestId, headers, clientSignal, body, upload });
 * if (capture instanceof Response) return capture;
 */
export async function openCapture(
  deps: CaptureDeps,
  request: CaptureRequest,
): Promise<CapturedWrite | Response> {
  const base =
    request.plan.kind === 'updated' && request.plan.recordId
      ? parseBaseValues(request.headers.get(BASE_VALUES_HEADER))
      : undefined;
  const body = request.plan.readsBody && !request.upload ? request.body : undefined;
  if (!body) {
    if (base) checkedChanges(undefined, base);
    return new CapturedWrite(deps, request, undefined, undefined, NO_SLOT);
  }
  let slot: PoolSlot | undefined;
  let bytes: Buffer;
  try {
    slot = await deps.pool.acquire(`region:${request.session.region}`, request.clientSignal);
    const stream = body();
    // Bounded by the proxy's length check (maxJsonBodyBytes): a captured write is never an upload.
    const read = stream ? await readUpTo(stream, deps.config.maxJsonBodyBytes) : { chunks: [] };
    bytes = Buffer.concat(read.chunks);
  } catch {
    slot?.release();
    return new Response(null, { status: 499 });
  }
  try {
    const changes = base
      ? { base, changes: checkedChanges(bytes.toString('utf8'), base) }
      : undefined;
    return new CapturedWrite(deps, request, bytes, changes, slot);
  } catch (error) {
    slot.release();
    throw error;
  }
}

/**
 * One captured write, from its body to its answer. The proxy sends it (with {@link body}
 * and {@link upstreamHeaders}) after {@link prepare}, and hands it the reply of a 2xx
 * ({@link finish}); {@link release} frees its place in the pool.
 */
export class CapturedWrite {
  /** The values before of the fields the body sets (long ones cut: held-values.ts). */
  private before: HeldValues | undefined;
  /** The record as stored when a save with base values was checked. */
  private stored: Record<string, unknown> | undefined;
  /** The whole record sent instead of the changes (a save with base values). */
  private sent: Record<string, unknown> | undefined;
  private sentBytes: Buffer | undefined;

  constructor(
    private readonly deps: CaptureDeps,
    private readonly request: CaptureRequest,
    private readonly bodyBytes: Buffer | undefined,
    private readonly check:
      { base: Record<string, string>; changes: Record<string, unknown> } | undefined,
    private readonly slot: PoolSlot,
  ) {}

  /** The body was read whole, so the write may be replayed after an upstream 401. */
  get replayable(): boolean {
    return this.bodyBytes !== undefined;
  }

  /**
   * The body to send, when it was read here (else the proxy streams the browser's): a fresh copy
   * per attempt, so the write may be sent again (after a 401, or a stale connection).
   */
  body(): (() => Readable) | undefined {
    const bytes = this.sentBytes ?? this.bodyBytes;
    return bytes ? () => Readable.from([bytes]) : undefined;
  }

  /** The upstream request headers, with the whole record's length when that is what is sent. */
  upstreamHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
    if (!this.sentBytes) return headers;
    return {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(this.sentBytes.length),
    };
  }

  private get key(): RecordKey | undefined {
    const { recordType, alias, recordId } = this.request.plan;
    return recordId ? { recordType, alias, handle: recordId } : undefined;
  }

  /**
   * Before the write goes out (again after a 401): an update's values before, from the copy or
   * one read; a save with base values checked against the stored record. Resolves an answer to
   * give instead (412, or a read the upstream refused, which the proxy passes on), else nothing.
   */
  async prepare(token: string): Promise<Response | IncomingMessage | undefined> {
    const key = this.key;
    if (this.request.plan.kind !== 'updated' || !key) return undefined;
    if (this.check) return this.checkConflict(token, key, this.check);
    if (this.before) return undefined;
    const { session, headers } = this.request;
    const copy = this.deps.copies.beforeValues(session.idHash, key, headers.get('if-match'));
    if (copy) {
      this.before = holdValues(copy.record, this.sentFields());
      return undefined;
    }
    // A failed read leaves the write alone: it is kept with unknown values before.
    const read = await this.read(token, key).catch(() => undefined);
    if (read instanceof IncomingMessage) read.resume();
    else if (read) this.before = holdValues(read.record, this.sentFields());
    return undefined;
  }

  /**
   * The fields the body sets: of the record before, only their values are held, so a write
   * waiting for its reply holds little more than its body (the whole record is in the copy).
   */
  private sentFields(): string[] {
    return Object.keys(jsonObject(this.bodyBytes?.toString('utf8')) ?? {});
  }

  private async checkConflict(
    token: string,
    key: RecordKey,
    check: { base: Record<string, string>; changes: Record<string, unknown> },
  ): Promise<Response | IncomingMessage | undefined> {
    if (!this.stored) {
      // Always read: the whole record goes out, so a copy (however fresh) would write back its
      // values over a change someone else made meanwhile to a field this save does not touch.
      const read = await this.read(token, key);
      if (read instanceof IncomingMessage) return read;
      if (!read) {
        return problemResponse({
          status: 502,
          code: 'upstream_bad_reply',
          title: 'Bad Gateway',
          detail: 'The record could not be read to check the save against it',
        });
      }
      this.stored = read.record;
    }
    const conflicts = conflictingFields(this.stored, check.base, check.changes);
    if (conflicts.length > 0) return staleRecordResponse(conflicts, this.stored);
    const { session, plan } = this.request;
    const definition = await this.deps
      .definitionOf?.(session, plan.recordType, plan.alias)
      .catch(() => undefined);
    this.sent = wholeRecordBody(this.stored, check.changes, definition);
    this.sentBytes = Buffer.from(JSON.stringify(this.sent));
    return undefined;
  }

  /** The record as stored now, read with the caller's token; it becomes the session's copy. */
  private async read(
    token: string,
    key: RecordKey,
  ): Promise<StoredRead | IncomingMessage | undefined> {
    const { config, agents, random, copies } = this.deps;
    const target = new URL(this.request.url);
    target.search = '';
    const reply = await exchange({
      url: target,
      agents,
      method: 'GET',
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        'x-request-id': this.request.requestId,
        'accept-encoding': 'identity',
      },
      idempotent: true,
      clientSignal: this.request.clientSignal,
      timeoutMs: config.upstreamTimeoutMs,
      bodyIdleMs: config.bodyIdleTimeoutMs,
      retry: config.retry,
      random,
    });
    const status = reply.statusCode ?? 502;
    if (status < 200 || status >= 300) return reply;
    const read = await readUpTo(reply, MAX_CAPTURED_BYTES);
    if (read.over) {
      reply.destroy();
      return undefined;
    }
    const bytes = Buffer.concat(read.chunks);
    const record = jsonObject(bytes.toString('utf8'));
    if (!record) return undefined;
    copies.put(this.request.session.idHash, key, record, reply.headers.etag, bytes.length);
    return { record };
  }

  /**
   * The upstream accepted the write: read its reply (up to the record size), work out what
   * changed (a field the reply lacks takes the body's value: no read again), keep the copy
   * current and build the answer.
   */
  async finish(
    upstream: IncomingMessage,
    status: number,
    headers: OutgoingHttpHeaders,
  ): Promise<CaptureResult> {
    let read: Awaited<ReturnType<typeof readUpTo>>;
    try {
      // The iterator is attached first: the idle watch's 'data' listener must not start the flow.
      const reading = readUpTo(upstream, MAX_CAPTURED_BYTES, { keepRest: true });
      watchResponseIdle(upstream, this.deps.config.bodyIdleTimeoutMs);
      read = await reading;
    } catch {
      throw new ProblemException({
        status: 502,
        code: 'upstream_unavailable',
        title: 'Bad Gateway',
        detail: 'The workspace API stopped sending its answer',
      });
    }
    const bytes = read.over ? undefined : Buffer.concat(read.chunks);
    const reply = jsonObject(bytes?.toString('utf8'));
    const { plan } = this.request;
    const recordId =
      plan.recordId ??
      handleOf(reply ?? {}, undefined) ??
      (reply ? await this.createdHandle(reply) : undefined);
    const before = this.stored ?? this.before?.values;
    const changes = changedFields(plan, { body: this.bodyBytes?.toString('utf8'), reply, before });
    const fields = this.stored ? changes : withoutUnchanged(changes, this.before);
    const believed = this.keepCopy(recordId, reply, upstream.headers.etag, bytes?.length);
    const synthesize = this.sent !== undefined && !reply && bytes !== undefined;
    return {
      recordId,
      fields,
      // Only a save that sent the whole record knows what is stored without a reply.
      response: synthesize
        ? this.storedAnswer(headers, believed ?? {})
        : this.answer(status, headers, bytes ?? { read: read.chunks, rest: read.rest }),
      streams: read.over,
    };
  }

  private async createdHandle(reply: Record<string, unknown>): Promise<string | undefined> {
    const { session, plan } = this.request;
    const field = await this.deps
      .handleFieldOf?.(session, plan.recordType, plan.alias)
      .catch(() => undefined);
    return field === undefined ? undefined : handleOf(reply, field);
  }

  /**
   * The session's copy after an accepted create or update: the reply; without one, the record
   * the BFF now believes stored when it sent the whole record (a save with base values), else
   * nothing (the copy is dropped: a PUT of some fields may merge or replace, the published
   * contract does not say).
   */
  private keepCopy(
    recordId: string | undefined,
    reply: Record<string, unknown> | undefined,
    etag: string | undefined,
    replyBytes: number | undefined,
  ): Record<string, unknown> | undefined {
    const { plan, session } = this.request;
    if (!recordId || (plan.kind !== 'updated' && plan.kind !== 'created')) return undefined;
    const key = { recordType: plan.recordType, alias: plan.alias, handle: recordId };
    const record =
      reply ?? (this.stored && this.sent ? { ...this.stored, ...this.sent } : undefined);
    if (record) this.deps.copies.put(session.idHash, key, record, etag, reply && replyBytes);
    else this.deps.copies.drop(session.idHash, key);
    return record;
  }

  /**
   * The answer to a save with base values that the upstream accepted without a JSON body (the
   * hosted service may answer empty): 200 with the record the BFF now believes stored.
   */
  private storedAnswer(headers: OutgoingHttpHeaders, record: Record<string, unknown>): Response {
    const body = Buffer.from(JSON.stringify(record));
    const { 'content-disposition': _disposition, ...rest } = headers;
    const json = { ...rest, 'content-type': 'application/json', 'content-length': body.length };
    return bufferedResponse(200, this.request.method, json, body);
  }

  /**
   * The upstream's answer: the reply read whole, or (too large to hold) what was read and then
   * the rest as it arrives.
   */
  private answer(
    status: number,
    headers: OutgoingHttpHeaders,
    reply: Buffer | { read: Buffer[]; rest: Readable | undefined },
  ): Response {
    const { method } = this.request;
    if (Buffer.isBuffer(reply)) return bufferedResponse(status, method, headers, reply);
    const { read, rest } = reply;
    const chained = Readable.from(
      (async function* () {
        yield* read;
        if (rest) yield* rest;
      })(),
    );
    return bufferedResponse(status, method, headers, chained);
  }

  /** Free the write's place in the pool (idempotent). */
  release(): void {
    this.slot.release();
  }
}
