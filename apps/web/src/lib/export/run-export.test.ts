import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@wsc/api-client';

import { concatBytes } from '@/testing/bytes.ts';

import type { ExportPage, ExportSource } from './run-export.ts';
import type { ExportSink } from './sink.ts';
import { createCsvEncoder } from './csv.ts';
import { runExport } from './run-export.ts';
import { blobSink } from './sink.ts';
import { createXlsxEncoder } from './xlsx.ts';

/** A list of `count` rows served `pageSize` at a time, with numeric cursors. */
function listSource(
  count: number,
  pageSize: number,
  failures: ApiError[] = [],
): ExportSource & {
  calls: (string | undefined)[];
} {
  const calls: (string | undefined)[] = [];
  return {
    calls,
    columns: [
      { header: 'ID', kind: 'text' },
      { header: 'Amount', kind: 'number' },
    ],
    fetchPage: async (after) => {
      calls.push(after);
      const failure = failures.shift();
      if (failure) throw failure;
      const from = after ? Number(after) : 0;
      const to = Math.min(count, from + pageSize);
      const rows = Array.from({ length: to - from }, (_, i) => [`R-${from + i}`, String(from + i)]);
      return { rows, total: count, next: to < count ? String(to) : undefined } satisfies ExportPage;
    },
  };
}

/** A sink that records what it was given. */
function memorySink() {
  const chunks: Uint8Array[] = [];
  const sink: ExportSink & { chunks: Uint8Array[]; closed: boolean; aborted: boolean } = {
    kind: 'file',
    chunks,
    closed: false,
    aborted: false,
    write: async (chunk) => {
      chunks.push(chunk);
    },
    close: async () => {
      sink.closed = true;
    },
    abort: async () => {
      sink.aborted = true;
    },
  };
  return sink;
}

const text = (chunks: Uint8Array[]) => new TextDecoder().decode(concatBytes(chunks));

describe('runExport', () => {
  it('reads every page in order and writes every row, reporting progress per page', async () => {
    const source = listSource(2500, 1000);
    const sink = memorySink();
    const progress: number[] = [];
    const result = await runExport({
      source,
      encoder: createCsvEncoder(),
      sink,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p.rows),
    });
    expect(result).toEqual({ rows: 2500, skipped: 0 });
    expect(source.calls).toEqual([undefined, '1000', '2000']);
    expect(progress).toEqual([1000, 2000, 2500]);
    const lines = text(sink.chunks).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2501);
    expect(lines[2500]).toBe('R-2499,2499');
    expect(sink.closed).toBe(true);
  });

  it('writes each page before reading the next (the file grows as pages arrive)', async () => {
    const source = listSource(3000, 1000);
    const sink = memorySink();
    const writtenBeforeCall: number[] = [];
    const fetchPage = source.fetchPage;
    source.fetchPage = (after, signal) => {
      writtenBeforeCall.push(sink.chunks.length);
      return fetchPage(after, signal);
    };
    await runExport({
      source,
      encoder: createXlsxEncoder('Rows'),
      sink,
      signal: new AbortController().signal,
    });
    // The header went out before the first read, and every page added bytes before the next.
    expect(writtenBeforeCall[0]).toBeGreaterThan(0);
    expect(writtenBeforeCall[1]).toBeGreaterThan(writtenBeforeCall[0] ?? 0);
    expect(writtenBeforeCall[2]).toBeGreaterThan(writtenBeforeCall[1] ?? 0);
  });

  it('waits the Retry-After of a 429 and goes on', async () => {
    const source = listSource(1500, 1000, [
      new ApiError({ status: 429, code: 'rate_limited', retryAfter: 3 }),
    ]);
    const sleep = vi.fn(async (_ms: number, _signal: AbortSignal) => undefined);
    const waits: (number | undefined)[] = [];
    const result = await runExport({
      source,
      encoder: createCsvEncoder(),
      sink: memorySink(),
      signal: new AbortController().signal,
      sleep,
      onProgress: (p) => waits.push(p.waitingSeconds),
    });
    expect(result.rows).toBe(1500);
    expect(sleep).toHaveBeenCalledWith(3000, expect.anything());
    expect(waits).toContain(3);
    expect(source.calls).toEqual([undefined, undefined, '1000']);
  });

  it('backs off when a 503 names no wait, and gives up after eight tries', async () => {
    const unavailable = () => new ApiError({ status: 503, code: 'unavailable' });
    const sleep = vi.fn(async (_ms: number, _signal: AbortSignal) => undefined);
    const sink = memorySink();
    await expect(
      runExport({
        source: listSource(10, 5, Array.from({ length: 8 }, unavailable)),
        encoder: createCsvEncoder(),
        sink,
        signal: new AbortController().signal,
        sleep,
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(sink.aborted).toBe(true);
    expect(sink.closed).toBe(false);
  });

  it('does not retry other errors, and aborts the file', async () => {
    const sink = memorySink();
    await expect(
      runExport({
        source: listSource(10, 5, [new ApiError({ status: 400, code: 'bad_request' })]),
        encoder: createCsvEncoder(),
        sink,
        signal: new AbortController().signal,
        sleep: async () => undefined,
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(sink.aborted).toBe(true);
  });

  it('stops when cancelled, between pages or while waiting, and discards the file', async () => {
    const controller = new AbortController();
    const source = listSource(5000, 1000);
    const sink = memorySink();
    const run = runExport({
      source,
      encoder: createCsvEncoder(),
      sink,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rows === 2000) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    expect(source.calls).toEqual([undefined, '1000']);
    expect(sink.aborted).toBe(true);
    expect(sink.closed).toBe(false);

    const waiting = new AbortController();
    const limited = runExport({
      source: listSource(10, 5, [
        new ApiError({ status: 429, code: 'rate_limited', retryAfter: 60 }),
      ]),
      encoder: createCsvEncoder(),
      sink: memorySink(),
      signal: waiting.signal,
      onProgress: (p) => {
        if (p.waitingSeconds === 60) waiting.abort();
      },
    });
    await expect(limited).rejects.toThrow();
  });

  it('stops a server that hands back a cursor it gave before', async () => {
    const looping: ExportSource = {
      columns: [{ header: 'ID', kind: 'text' }],
      fetchPage: async () => ({ rows: [['x']], next: 'same' }),
    };
    await expect(
      runExport({
        source: looping,
        encoder: createCsvEncoder(),
        sink: memorySink(),
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/same page twice/);
  });

  it('counts rows the service sent unreadable', async () => {
    const source: ExportSource = {
      columns: [{ header: 'ID', kind: 'text' }],
      fetchPage: async () => ({ rows: [['a']], skipped: 2, total: 3 }),
    };
    const result = await runExport({
      source,
      encoder: createCsvEncoder(),
      sink: memorySink(),
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ rows: 1, skipped: 2 });
  });
});

describe('blobSink', () => {
  it('folds chunks into one Blob and downloads it once closed', async () => {
    const download = vi.fn<(blob: Blob, name: string) => void>();
    const sink = blobSink('rows.csv', 'text/csv', download);
    const chunk = new Uint8Array(3 * 1024 * 1024).fill(65);
    await sink.write(chunk);
    await sink.write(chunk);
    await sink.write(new TextEncoder().encode('end'));
    expect(download).not.toHaveBeenCalled();
    await sink.close();
    const [blob, name] = download.mock.calls[0] ?? [];
    expect(name).toBe('rows.csv');
    expect(blob?.size).toBe(6 * 1024 * 1024 + 3);
    expect(blob?.type).toBe('text/csv');
    expect(await blob?.slice(-3).text()).toBe('end');
  });

  it('downloads nothing when aborted', async () => {
    const download = vi.fn();
    const sink = blobSink('rows.csv', 'text/csv', download);
    await sink.write(new Uint8Array(10));
    await sink.abort();
    expect(download).not.toHaveBeenCalled();
  });
});
