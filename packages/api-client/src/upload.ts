import { ApiError } from './errors.ts';
import { MAX_UPLOAD_BYTES } from './schemas/attachments.ts';

/**
 * What can be uploaded: a Blob/File (browser or Node), or in Node a file on disk by path (streamed,
 * never read into memory). `name`/`type` override the file name and media type sent.
 */
export type UploadSource = Blob | { path: string; name?: string; type?: string };

/** Bytes of the request body sent so far, of `total` (the multipart body, overhead included). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** One multipart upload, ready to send: the client has already resolved URL and headers. */
export interface UploadRequest {
  url: string;
  /** Extra headers, Authorization included; never Content-Type (the transport sets the boundary). */
  headers: Record<string, string>;
  file: UploadSource;
  description?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** The fetch used by the streaming (Node) transport. */
  fetch: typeof fetch;
}

/** The subset of XMLHttpRequest the browser transport uses (so tests can pass a small fake). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  getAllResponseHeaders(): string;
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;
  withCredentials: boolean;
  upload: { onprogress: ((event: XhrProgressLike) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  ontimeout: (() => void) | null;
}
export interface XhrProgressLike {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}
export type XhrConstructor = new () => XhrLike;

/** The parts of `node:fs` the streaming transport needs; typed locally so browser builds need no Node types. */
interface NodeFsLike {
  promises: { stat(path: string): Promise<{ size: number; isFile(): boolean }> };
  createReadStream(path: string, options?: { highWaterMark?: number }): AsyncIterable<Uint8Array>;
}

async function nodeFs(): Promise<NodeFsLike> {
  // A computed specifier keeps bundlers from pulling node:fs into the browser build; this branch
  // only runs where there is no XMLHttpRequest, i.e. in Node.
  const specifier = 'node:fs';
  return (await import(/* @vite-ignore */ specifier)) as NodeFsLike;
}

function isBlob(file: UploadSource): file is Blob {
  return typeof Blob !== 'undefined' && file instanceof Blob;
}

/**
 * The size in bytes of what would be uploaded (stats the file for a path).
 *
 * @example
 * await uploadSize(new Blob(['abc'])); // 3
 * await uploadSize({ path: '/tmp/report.pdf' });
 */
export async function uploadSize(file: UploadSource): Promise<number> {
  if (isBlob(file)) return file.size;
  const stats = await (await nodeFs()).promises.stat(file.path);
  if (!stats.isFile()) throw new TypeError(`Not a regular file: ${file.path}`);
  return stats.size;
}

/**
 * Throws the same 413 the server would, before any byte is sent, when a file exceeds the 250 MiB
 * limit: the user learns at once instead of after streaming a quarter gigabyte.
 *
 * @example
 * assertUploadSize(file.size); // throws ApiError { status: 413, code: 'file_too_large' }
 */
export function assertUploadSize(size: number, limit: number = MAX_UPLOAD_BYTES): void {
  if (size > limit) {
    throw new ApiError({
      status: 413,
      code: 'file_too_large',
      title: 'File too large',
      detail: `The file is ${size} bytes; the limit is ${limit} bytes (250 MiB).`,
      errors: [{ field: 'file', message: `must be at most ${limit} bytes` }],
    });
  }
}

/** The file name sent for an upload: File.name, the path's base name, or a neutral default. */
function fileName(file: UploadSource): string {
  if (isBlob(file)) {
    const name = (file as Blob & { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : 'blob';
  }
  return file.name ?? file.path.split(/[\\/]/).pop() ?? 'file';
}

function mediaType(file: UploadSource): string {
  return (isBlob(file) ? file.type : file.type) || 'application/octet-stream';
}

/** Quotes a multipart parameter value the way browsers' FormData does. */
function quote(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Picks the transport: XMLHttpRequest where it exists (browsers: the only API with upload progress),
 * else fetch with a counted streaming body (Node).
 *
 * @example
 * uploadTransport(globalThis); // 'xhr' in a browser, 'stream' in Node
 */
export function uploadTransport(env: object = globalThis): 'xhr' | 'stream' {
  return typeof (env as { XMLHttpRequest?: unknown }).XMLHttpRequest === 'function'
    ? 'xhr'
    : 'stream';
}

/**
 * Sends a multipart upload (`file` + optional `description`) by the environment's transport and
 * resolves with the raw Response (status not checked). Rejects with the AbortError on abort and
 * with a TypeError when no answer arrived.
 *
 * @example
 * const response = await sendUpload({ url, headers, file, onProgress, signal, fetch });
 */
export function sendUpload(request: UploadRequest): Promise<Response> {
  if (uploadTransport() === 'xhr') {
    const Xhr = (globalThis as unknown as { XMLHttpRequest: XhrConstructor }).XMLHttpRequest;
    return sendWithXhr(request, Xhr);
  }
  return sendWithStream(request);
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Null-body statuses: the Response constructor refuses a body for these. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function parseHeaderBlock(block: string): Headers {
  const headers = new Headers();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A malformed header line from the server is dropped rather than failing the upload.
    }
  }
  return headers;
}

/**
 * Browser transport: XMLHttpRequest with FormData, progress from `upload.onprogress`, cancellation
 * through the signal. Cookies go same-origin only (`withCredentials = false`), like fetch's default.
 *
 * @example
 * const response = await sendWithXhr(request, XMLHttpRequest);
 */
export function sendWithXhr(request: UploadRequest, Xhr: XhrConstructor): Promise<Response> {
  const { url, headers, file, description, onProgress, signal } = request;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    if (!isBlob(file)) {
      reject(new TypeError('A file path can only be uploaded from Node; pass a File or Blob'));
      return;
    }
    const xhr = new Xhr();
    const onAbort = () => {
      xhr.abort();
      reject(abortReason(signal));
    };
    const done = () => signal?.removeEventListener('abort', onAbort);
    let lastTotal = file.size;
    let lastLoaded = 0;

    xhr.open('POST', url);
    xhr.withCredentials = false;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      lastTotal = event.lengthComputable ? event.total : lastTotal;
      lastLoaded = event.loaded;
      onProgress?.({ loaded: event.loaded, total: lastTotal });
    };
    xhr.onload = () => {
      done();
      // Browsers may skip the final progress event; the UI expects to reach 100 %.
      if (onProgress && lastLoaded < lastTotal) onProgress({ loaded: lastTotal, total: lastTotal });
      const body = NULL_BODY.has(xhr.status) ? null : xhr.responseText;
      resolve(
        new Response(body, {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: parseHeaderBlock(xhr.getAllResponseHeaders()),
        }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network error during upload'));
    };
    xhr.ontimeout = xhr.onerror;
    signal?.addEventListener('abort', onAbort, { once: true });

    const form = new FormData();
    if (description !== undefined) form.append('description', description);
    form.append('file', file, fileName(file));
    xhr.send(form);
  });
}

const encoder = new TextEncoder();

/**
 * Builds the multipart framing around the file bytes, with a random boundary.
 *
 * @example
 * const { head, tail, boundary } = multipartFraming('a.txt', 'text/plain', 'notes');
 */
export function multipartFraming(
  name: string,
  type: string,
  description?: string,
): { boundary: string; head: Uint8Array; tail: Uint8Array } {
  const random = crypto.getRandomValues(new Uint8Array(16));
  const boundary = `----wsc-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  let head = '';
  if (description !== undefined) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n${description}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(name)}"\r\n` +
    `Content-Type: ${type.replace(/[\r\n]/g, '')}\r\n\r\n`;
  return { boundary, head: encoder.encode(head), tail: encoder.encode(`\r\n--${boundary}--\r\n`) };
}

async function* fileChunks(file: UploadSource): AsyncGenerator<Uint8Array> {
  if (isBlob(file)) {
    const reader = file.stream().getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
  // 1 MiB reads: fewer round trips than the 64 KiB default, still a bounded buffer.
  yield* (await nodeFs()).createReadStream(file.path, { highWaterMark: 1 << 20 });
}

/**
 * Node transport: fetch with a pull-based ReadableStream body (backpressure: nothing is read ahead
 * of the socket) and a known Content-Length, so servers can reject an oversize upload up front.
 * Progress counts the bytes handed to fetch.
 *
 * @example
 * const response = await sendWithStream({ url, headers, file: { path: '/tmp/a.pdf' }, fetch });
 */
export async function sendWithStream(request: UploadRequest): Promise<Response> {
  const { url, headers, file, description, onProgress, signal } = request;
  if (signal?.aborted) throw abortReason(signal);
  const size = await uploadSize(file);
  const { boundary, head, tail } = multipartFraming(fileName(file), mediaType(file), description);
  const total = head.byteLength + size + tail.byteLength;

  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield head;
    yield* fileChunks(file);
    yield tail;
  }
  const iterator = chunks();
  let loaded = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      loaded += next.value.byteLength;
      controller.enqueue(next.value);
      onProgress?.({ loaded, total });
    },
    async cancel() {
      // Closes the file when fetch gives up (abort, connection reset).
      await iterator.return(undefined);
    },
  });

  // `duplex` is required by Node for stream bodies but missing from the DOM RequestInit type.
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers: {
      ...headers,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(total),
    },
    body,
    duplex: 'half',
    signal,
  };
  return request.fetch(url, init);
}
