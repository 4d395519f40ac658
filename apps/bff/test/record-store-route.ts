// A counting stand-in for the API's records, as a fake upstream route: read one, list (items
// `{cursor, data}`), create and update (merging, with ETags and If-Match like our API, or without
// `id` and ETag like the hosted service). Tests count the requests it got to prove how many
// upstream round trips a write cost.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RouteHandler } from './fake-upstream.ts';

export type StoredRecord = Record<string, string>;

export type RecordStore = {
  records: Map<string, StoredRecord>;
  versions: Map<string, number>;
  /** Hold every PUT until this resolves (concurrency tests). */
  holdPuts: Promise<void> | undefined;
  /** PUTs answer 200 with an empty body (the hosted service may). */
  emptyPutReply: boolean;
  route: RouteHandler;
};

function reply(res: ServerResponse, status: number, body: unknown, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text
      ? { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }
      : {}),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * A record store route for `/v1/{recordType}/{alias}[/{handle}]`. `hosted`: records carry their
 * handle in `handleField` (no `id`), and no ETags.
 *
 * @example
 * const store = recordStore({ hosted: false });
 * upstream.route = store.route;
 */
export function recordStore(options: { hosted?: boolean; handleField?: string } = {}): RecordStore {
  const hosted = options.hosted ?? false;
  const handleField = hosted ? (options.handleField ?? 'Ticket ID') : 'id';
  const store: RecordStore = {
    records: new Map(),
    versions: new Map(),
    holdPuts: undefined,
    emptyPutReply: false,
    route: (req, res) => void handle(req, res),
  };
  const etag = (handle: string) => `"v${store.versions.get(handle) ?? 0}"`;
  const tagged = (handle: string) => (hosted ? {} : { etag: etag(handle) });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const [, , , , handleParam] = url.pathname.split('/');
    const body = await readBody(req);
    const id = handleParam === undefined ? undefined : decodeURIComponent(handleParam);
    if (req.method === 'GET' && id === undefined) {
      const items = [...store.records.values()].map((data, i) => ({ cursor: `c${i}`, data }));
      const paging = { has_previous_page: false, has_next_page: false };
      return reply(res, 200, { paging, total: items.length, items });
    }
    if (req.method === 'POST' && id === undefined) {
      const handleValue = `SUP-${store.records.size + 1}`;
      const record = { ...(JSON.parse(body) as StoredRecord), [handleField]: handleValue };
      store.records.set(handleValue, record);
      store.versions.set(handleValue, 1);
      return reply(res, 201, record, tagged(handleValue));
    }
    const record = id === undefined ? undefined : store.records.get(id);
    if (!record || id === undefined) return reply(res, 404, { title: 'Not Found', status: 404 });
    if (req.method === 'GET') return reply(res, 200, record, tagged(id));
    if (req.method !== 'PUT') return reply(res, 405, { title: 'Method Not Allowed' });
    const ifMatch = req.headers['if-match'];
    if (!hosted && ifMatch !== undefined && ifMatch !== etag(id)) {
      return reply(res, 412, { title: 'Precondition Failed', status: 412 }, tagged(id));
    }
    await store.holdPuts;
    const changes = JSON.parse(body) as StoredRecord;
    const updated = { ...record, ...changes, [handleField]: id };
    store.records.set(id, updated);
    store.versions.set(id, (store.versions.get(id) ?? 0) + 1);
    if (store.emptyPutReply) return reply(res, 200, undefined);
    return reply(res, 200, updated, tagged(id));
  }
  return store;
}
