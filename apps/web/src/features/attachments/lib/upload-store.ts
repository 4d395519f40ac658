import type { Attachment, RecordType, UploadProgress } from '@wsc/api-client';
import { isApiError, MAX_UPLOAD_BYTES } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

import type { RateSample } from './upload-speed.ts';
import { signalUploadsStarted } from './upload-signal.ts';
import { addSample, formatBytes, rate } from './upload-speed.ts';

/** The record an upload goes to. */
export interface UploadTarget {
  recordType: RecordType;
  alias: string;
  id: string;
}

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'error' | 'canceled' | 'refused';

/** What the UI shows about one file: an immutable snapshot, replaced on every change. */
export interface Upload {
  key: string;
  name: string;
  size: number;
  target: UploadTarget;
  status: UploadStatus;
  /** Bytes of the request body sent (multipart overhead included), of `total`. */
  loaded: number;
  total: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  error?: string | undefined;
}

/** The transport the manager drives; the app's is the api-client's XHR upload. */
export type UploadFn = (
  target: UploadTarget,
  file: File,
  options: { signal: AbortSignal; onProgress: (progress: UploadProgress) => void },
) => Promise<Attachment | undefined>;

export interface UploadManagerOptions {
  upload: UploadFn;
  /** Uploads running at once; the rest wait in order. */
  concurrency?: number;
  maxBytes?: number;
  now?: () => number;
  /** How often progress is published to the UI at most (status changes publish at once). */
  publishEveryMs?: number;
  /** Called whenever files are queued (the app tells the shell to show the tray). */
  onEnqueue?: () => void;
}

interface Entry {
  upload: Upload;
  file: File;
  controller: AbortController | undefined;
  samples: RateSample[];
  /** Called after a successful upload, with the Attachment when the server sent one. */
  onUploaded: ((attachment: Attachment | undefined) => void) | undefined;
}

const ACTIVE: ReadonlySet<UploadStatus> = new Set(['queued', 'uploading']);

/**
 * Creates an upload manager: a queue that runs at most `concurrency` uploads, with per-file
 * progress and speed, cancel, retry, and the size limit checked before anything is sent.
 * Framework-free; React reads it through `subscribe`/`getSnapshot` (useSyncExternalStore).
 *
 * @example
 * const manager = createUploadManager({ upload: (t, file, o) => api.uploadAttachment(t.recordType, t.alias, t.id, file, o) });
 * manager.enqueue({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }, files);
 */
export function createUploadManager(options: UploadManagerOptions) {
  const concurrency = options.concurrency ?? 3;
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  const now = options.now ?? Date.now;
  const publishEveryMs = options.publishEveryMs ?? 100;
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  let snapshot: Upload[] = [];
  let publishTimer: ReturnType<typeof setTimeout> | undefined;
  let counter = 0;

  function publish() {
    clearTimeout(publishTimer);
    publishTimer = undefined;
    snapshot = [...entries.values()].map((e) => e.upload);
    for (const listener of listeners) listener();
  }

  function publishSoon() {
    publishTimer ??= setTimeout(publish, publishEveryMs);
  }

  function update(entry: Entry, patch: Partial<Upload>) {
    entry.upload = { ...entry.upload, ...patch };
  }

  function pump() {
    let running = [...entries.values()].filter((e) => e.upload.status === 'uploading').length;
    for (const entry of entries.values()) {
      if (running >= concurrency) break;
      if (entry.upload.status !== 'queued') continue;
      running++;
      start(entry);
    }
  }

  function start(entry: Entry) {
    const controller = new AbortController();
    entry.controller = controller;
    entry.samples = [{ at: now(), loaded: 0 }];
    update(entry, { status: 'uploading', loaded: 0, speed: 0, error: undefined });
    options
      .upload(entry.upload.target, entry.file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => {
          if (entry.controller !== controller) return;
          entry.samples = addSample(entry.samples, { at: now(), loaded });
          update(entry, { loaded, total, speed: rate(entry.samples) });
          publishSoon();
        },
      })
      .then((attachment) => {
        if (entry.controller !== controller) return;
        update(entry, { status: 'done', loaded: entry.upload.total, speed: 0 });
        entry.onUploaded?.(attachment);
      })
      .catch((error: unknown) => {
        if (entry.controller !== controller) return;
        if (controller.signal.aborted) update(entry, { status: 'canceled', speed: 0 });
        else update(entry, { status: 'error', speed: 0, error: uploadErrorMessage(error) });
      })
      .finally(() => {
        if (entry.controller === controller) entry.controller = undefined;
        pump();
        publish();
      });
  }

  return {
    /**
     * Queues files for a record; files over the limit are refused at once and never sent.
     * `onUploaded` runs after each file is stored (e.g. to refresh the attachment list).
     */
    enqueue(
      target: UploadTarget,
      files: Iterable<File>,
      onUploaded?: (attachment: Attachment | undefined) => void,
    ): string[] {
      const keys: string[] = [];
      for (const file of files) {
        const key = `upload-${++counter}`;
        const refused = file.size > maxBytes;
        entries.set(key, {
          file,
          controller: undefined,
          samples: [],
          onUploaded,
          upload: {
            key,
            name: file.name,
            size: file.size,
            target,
            status: refused ? 'refused' : 'queued',
            loaded: 0,
            total: file.size,
            speed: 0,
            error: refused
              ? `${formatBytes(file.size)} is over the ${formatBytes(maxBytes)} limit; not sent.`
              : undefined,
          },
        });
        keys.push(key);
      }
      options.onEnqueue?.();
      pump();
      publish();
      return keys;
    },
    /** Stops a running or queued upload; the server keeps nothing of an interrupted upload. */
    cancel(key: string) {
      const entry = entries.get(key);
      if (!entry || !ACTIVE.has(entry.upload.status)) return;
      const controller = entry.controller;
      entry.controller = undefined;
      update(entry, { status: 'canceled', speed: 0 });
      controller?.abort();
      pump();
      publish();
    },
    /** Queues a failed or canceled upload again (at the end of the queue). */
    retry(key: string) {
      const entry = entries.get(key);
      if (!entry || (entry.upload.status !== 'error' && entry.upload.status !== 'canceled')) return;
      entries.delete(key);
      entries.set(key, entry);
      update(entry, { status: 'queued', loaded: 0, speed: 0, error: undefined });
      pump();
      publish();
    },
    /** Removes a finished, failed, refused or canceled upload from the list. */
    dismiss(key: string) {
      const entry = entries.get(key);
      if (!entry || ACTIVE.has(entry.upload.status)) return;
      entries.delete(key);
      publish();
    },
    /** Removes everything that is no longer queued or running. */
    clearFinished() {
      for (const [key, entry] of entries) if (!ACTIVE.has(entry.upload.status)) entries.delete(key);
      publish();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
  };
}

export type UploadManager = ReturnType<typeof createUploadManager>;

/**
 * One line on why an upload failed, for the file's row.
 *
 * @example
 * uploadErrorMessage(new ApiError({ status: 413, code: 'file_too_large' })); // 'Too large for the server (413).'
 */
export function uploadErrorMessage(error: unknown): string {
  if (!isApiError(error)) return 'The connection failed. Check your network and retry.';
  if (error.status === 0) return 'The connection failed. Check your network and retry.';
  if (error.status === 413) return 'Too large for the server (413).';
  if (error.status === 403) return 'You may not add attachments to this record.';
  if (error.status === 404) return 'The record no longer exists.';
  if (error.status === 429) return 'Too many requests; retry in a moment.';
  return error.detail ?? error.title;
}

/**
 * The console's one upload manager: module state, so uploads keep running while the user moves
 * around the console, and the tray in the shell shows them wherever they are.
 */
export const uploads = createUploadManager({
  upload: (target, file, options) =>
    api.uploadAttachment(target.recordType, target.alias, target.id, file, {
      ...options,
      source: 'attachments',
    }),
  onEnqueue: signalUploadsStarted,
});

// Leaving the page would abort running uploads: ask first, as file managers do.
globalThis.addEventListener?.('beforeunload', (event) => {
  if (uploads.getSnapshot().some((u) => ACTIVE.has(u.status))) event.preventDefault();
});
