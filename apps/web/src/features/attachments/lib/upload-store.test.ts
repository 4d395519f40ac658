import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Attachment, UploadProgress } from '@wsc/api-client';
import { ApiError } from '@wsc/api-client';

import type { UploadFn, UploadTarget } from './upload-store.ts';
import { createUploadManager, uploadErrorMessage } from './upload-store.ts';

const target: UploadTarget = { recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' };

interface Call {
  name: string;
  signal: AbortSignal;
  progress: (p: UploadProgress) => void;
  resolve: (a: Attachment) => void;
  reject: (e: unknown) => void;
}

/** A controllable transport: each call waits until the test resolves or rejects it. */
function fakeTransport() {
  const calls: Call[] = [];
  const upload: UploadFn = (_target, file, options) =>
    new Promise<Attachment>((resolve, reject) => {
      options.signal.addEventListener('abort', () =>
        reject(new DOMException('aborted', 'AbortError')),
      );
      calls.push({
        name: file.name,
        signal: options.signal,
        progress: options.onProgress,
        resolve,
        reject,
      });
    });
  return { calls, upload };
}

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const attachment = (name: string): Attachment => ({
  id: name,
  name,
  description: null,
  mediaType: 'application/octet-stream',
  size: 10,
  state: 'VALID',
  sha256: undefined,
  url: undefined,
  createdBy: undefined,
  viewState: 'PRIVATE',
  contentUrl: null,
  createdAt: '2024-01-01T00:00:00.000Z',
});
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('upload manager', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most three uploads at once and starts the next in order as one finishes', async () => {
    const { calls, upload } = fakeTransport();
    const manager = createUploadManager({ upload });
    manager.enqueue(
      target,
      ['a', 'b', 'c', 'd', 'e'].map((n) => file(n)),
    );
    expect(calls.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(manager.getSnapshot().map((u) => u.status)).toEqual([
      'uploading',
      'uploading',
      'uploading',
      'queued',
      'queued',
    ]);
    calls[1]?.resolve(attachment('b'));
    await flush();
    expect(calls.map((c) => c.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(manager.getSnapshot()[1]?.status).toBe('done');
  });

  it('refuses files over the limit before sending anything', () => {
    const { calls, upload } = fakeTransport();
    const manager = createUploadManager({ upload, maxBytes: 100 });
    manager.enqueue(target, [file('big', 101), file('ok', 100)]);
    const [big, ok] = manager.getSnapshot();
    expect(big?.status).toBe('refused');
    expect(big?.error).toMatch(/over the 100 B limit; not sent/);
    expect(ok?.status).toBe('uploading');
    expect(calls.map((c) => c.name)).toEqual(['ok']);
  });

  it('reports progress and a sliding-window speed', async () => {
    const { calls, upload } = fakeTransport();
    let now = 0;
    const manager = createUploadManager({ upload, now: () => now, publishEveryMs: 50 });
    manager.enqueue(target, [file('a', 4000)]);
    now = 1000;
    calls[0]?.progress({ loaded: 1000, total: 4000 });
    now = 2000;
    calls[0]?.progress({ loaded: 3000, total: 4000 });
    await vi.advanceTimersByTimeAsync(60);
    const [a] = manager.getSnapshot();
    expect(a).toMatchObject({ loaded: 3000, total: 4000 });
    expect(a?.speed).toBe(1500);
    // Old samples fall out of the 3 s window: the speed follows the recent rate.
    now = 6000;
    calls[0]?.progress({ loaded: 3400, total: 4000 });
    await vi.advanceTimersByTimeAsync(60);
    expect(manager.getSnapshot()[0]?.speed).toBe(100);
  });

  it('cancels a running upload (aborting it) and a queued one; the queue moves on', async () => {
    const { calls, upload } = fakeTransport();
    const manager = createUploadManager({ upload });
    const keys = manager.enqueue(
      target,
      ['a', 'b', 'c', 'd', 'e'].map((n) => file(n)),
    );
    manager.cancel(keys[0] ?? '');
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls.map((c) => c.name)).toEqual(['a', 'b', 'c', 'd']);
    manager.cancel(keys[4] ?? '');
    await flush();
    expect(manager.getSnapshot().map((u) => u.status)).toEqual([
      'canceled',
      'uploading',
      'uploading',
      'uploading',
      'canceled',
    ]);
    expect(calls).toHaveLength(4);
  });

  it('retry re-queues a failed upload at the end and calls onUploaded when it succeeds', async () => {
    const { calls, upload } = fakeTransport();
    const onUploaded = vi.fn();
    const manager = createUploadManager({ upload, concurrency: 1 });
    const [a] = manager.enqueue(target, [file('a'), file('b')], onUploaded);
    calls[0]?.reject(new ApiError({ status: 503, code: 'service_unavailable' }));
    await flush();
    expect(manager.getSnapshot()[0]).toMatchObject({ status: 'error' });
    expect(calls.map((c) => c.name)).toEqual(['a', 'b']);
    manager.retry(a ?? '');
    expect(manager.getSnapshot().map((u) => [u.name, u.status])).toEqual([
      ['b', 'uploading'],
      ['a', 'queued'],
    ]);
    calls[1]?.resolve(attachment('b'));
    await flush();
    calls[2]?.resolve(attachment('a'));
    await flush();
    expect(calls.map((c) => c.name)).toEqual(['a', 'b', 'a']);
    expect(onUploaded).toHaveBeenCalledTimes(2);
    manager.clearFinished();
    expect(manager.getSnapshot()).toEqual([]);
  });

  it('notifies subscribers and tells the shell when files are queued', () => {
    const onEnqueue = vi.fn();
    const listener = vi.fn();
    const manager = createUploadManager({ upload: fakeTransport().upload, onEnqueue });
    manager.subscribe(listener);
    manager.enqueue(target, [file('a')]);
    expect(onEnqueue).toHaveBeenCalledOnce();
    expect(listener).toHaveBeenCalled();
  });
});

describe('uploadErrorMessage', () => {
  it('explains the usual failures in one line', () => {
    expect(uploadErrorMessage(new ApiError({ status: 413, code: 'file_too_large' }))).toBe(
      'Too large for the server (413).',
    );
    expect(uploadErrorMessage(new TypeError('Network error during upload'))).toMatch(/connection/);
    expect(uploadErrorMessage(new ApiError({ status: 403, code: 'forbidden' }))).toMatch(/may not/);
  });
});
