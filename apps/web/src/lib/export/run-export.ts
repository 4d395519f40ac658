import { sleep as abortableSleep, isApiError } from '@wsc/api-client';

import type { ExportColumn, ExportEncoder } from './cells.ts';
import type { ExportSink } from './sink.ts';

/** One page of a list, as an export reads it. */
export interface ExportPage {
  /** Each row's values in column order (`undefined` for none). */
  rows: (string | undefined)[][];
  /** How many rows match in all, when the server says. */
  total?: number | undefined;
  /** The cursor of the next page; `undefined` at the end. */
  next?: string | undefined;
  /** Rows the service sent that could not be read (no id), left out of the file. */
  skipped?: number | undefined;
}

/** A list to export: its columns and how to read one page after a cursor. */
export interface ExportSource {
  columns: ExportColumn[];
  /** Reads the page after `after` (the first page for `undefined`), as large as the API allows. */
  fetchPage(after: string | undefined, signal: AbortSignal): Promise<ExportPage>;
}

/** Where an export is. */
export interface ExportProgress {
  rows: number;
  total: number | undefined;
  /** Rows left out because the service sent them unreadable. */
  skipped: number;
  /** Seconds the export waits because the service asked it to (429), while it waits. */
  waitingSeconds?: number | undefined;
}

export interface RunExportOptions {
  source: ExportSource;
  encoder: ExportEncoder;
  sink: ExportSink;
  signal: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /** Waits `ms` or rejects when `signal` aborts. Injected by tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Rows asked for per page: the most both our API and the published contract allow. */
export const EXPORT_PAGE_SIZE = 1000;

/** Answers worth waiting for and asking again: rate limited, or a gateway briefly unavailable. */
const TRANSIENT = new Set([429, 502, 503, 504]);
/** Tries of one page in a row before the export gives up. */
const MAX_TRIES = 8;
/** Back-off when the service names no wait: 1 s, doubling, at most 30 s. */
const BASE_WAIT_MS = 1000;
const MAX_WAIT_MS = 30_000;

/**
 * Writes every row of a list into a file, page by page: the first page's cursor to the last, one
 * request at a time (so the export never adds more than one request to the person's rate limit),
 * each page encoded and written before the next is read, so memory holds one page whatever the
 * row count. A 429 (or 502/503/504) waits the `Retry-After` the service sent (else a doubling
 * back-off) and asks again. Aborting `signal` stops it and discards the file.
 *
 * @example
 * const { rows } = await runExport({ source, encoder: createCsvEncoder(), sink, signal });
 */
export async function runExport({
  source,
  encoder,
  sink,
  signal,
  onProgress,
  sleep = abortableSleep,
}: RunExportOptions): Promise<{ rows: number; skipped: number }> {
  try {
    await writeAll(encoder.start(source.columns), sink);
    let after: string | undefined;
    let rows = 0;
    let skipped = 0;
    let total: number | undefined;
    const seen = new Set<string>();
    for (;;) {
      const page = await fetchWithRetry(source, after, signal, sleep, (waitingSeconds) =>
        onProgress?.({ rows, total, skipped, waitingSeconds }),
      );
      total ??= page.total;
      await writeAll(encoder.rows(page.rows), sink);
      rows += page.rows.length;
      skipped += page.skipped ?? 0;
      onProgress?.({ rows, total, skipped });
      if (!page.next) break;
      // A server that hands back a cursor it gave before would loop forever: stop instead.
      if (seen.has(page.next)) throw new Error('The service returned the same page twice.');
      seen.add(page.next);
      after = page.next;
    }
    await writeAll(encoder.finish(), sink);
    await sink.close();
    return { rows, skipped };
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}

async function writeAll(chunks: Uint8Array[], sink: ExportSink): Promise<void> {
  for (const chunk of chunks) await sink.write(chunk);
}

async function fetchWithRetry(
  source: ExportSource,
  after: string | undefined,
  signal: AbortSignal,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  onWait: (seconds: number | undefined) => void,
): Promise<ExportPage> {
  for (let attempt = 0; ; attempt += 1) {
    signal.throwIfAborted();
    try {
      return await source.fetchPage(after, signal);
    } catch (error) {
      if (!isApiError(error) || !TRANSIENT.has(error.status) || attempt + 1 >= MAX_TRIES) {
        throw error;
      }
      const ms =
        error.retryAfter !== undefined
          ? error.retryAfter * 1000
          : Math.min(MAX_WAIT_MS, BASE_WAIT_MS * 2 ** attempt);
      onWait(Math.ceil(ms / 1000));
      await sleep(ms, signal);
      onWait(undefined);
    }
  }
}
