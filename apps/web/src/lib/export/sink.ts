// Where an export's bytes go as they are made: straight into a file the person chose (File System
// Access API, Chromium), else into a Blob built in slices, so neither path holds the whole file in
// JavaScript memory (ADR 0019).

/** A file being written: chunks in order, then close (the file is kept) or abort (it is not). */
export interface ExportSink {
  /** How the file is delivered: written in place, or downloaded when done. */
  readonly kind: 'file' | 'download';
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** The part of the File System Access API this uses (not yet in TypeScript's DOM types). */
interface SaveFilePicker {
  (options: {
    suggestedName: string;
    types: { description: string; accept: Record<string, string[]> }[];
  }): Promise<{
    createWritable(): Promise<{
      write(data: Uint8Array): Promise<void>;
      close(): Promise<void>;
      abort(): Promise<void>;
    }>;
  }>;
}

/** Bytes collected before they are folded into the Blob (so parts do not pile up in the heap). */
const BLOB_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * Asks where to save with the browser's save dialog, where there is one, and opens the file for
 * writing. Must be called from the click itself (browsers require a user gesture). `null` when the
 * person closed the dialog; without the API, a sink that downloads when closed.
 *
 * @example
 * const sink = await openExportSink('support-tickets-2026-11-24.csv', 'text/csv', 'CSV');
 * if (!sink) return; // cancelled in the save dialog
 */
export async function openExportSink(
  fileName: string,
  mediaType: string,
  description: string,
): Promise<ExportSink | null> {
  const picker = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') return blobSink(fileName, mediaType);
  const extension = fileName.slice(fileName.lastIndexOf('.'));
  let handle;
  try {
    handle = await picker({
      suggestedName: fileName,
      types: [{ description, accept: { [mediaType]: [extension] } }],
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    // Refused (e.g. no permission in this context): fall back to a download.
    return blobSink(fileName, mediaType);
  }
  const writable = await handle.createWritable();
  return {
    kind: 'file',
    write: (chunk) => writable.write(chunk),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}

/**
 * A sink that grows a Blob slice by slice (the browser keeps Blob bytes outside the JavaScript
 * heap, on disk when large) and downloads it as `fileName` when closed.
 *
 * @example
 * const sink = blobSink('users.csv', 'text/csv');
 */
export function blobSink(
  fileName: string,
  mediaType: string,
  download: (blob: Blob, fileName: string) => void = downloadBlob,
): ExportSink {
  let blob = new Blob([], { type: mediaType });
  let parts: Uint8Array[] = [];
  let pending = 0;
  const fold = () => {
    blob = new Blob([blob, ...(parts as BlobPart[])], { type: mediaType });
    parts = [];
    pending = 0;
  };
  return {
    kind: 'download',
    write: async (chunk) => {
      parts.push(chunk);
      pending += chunk.byteLength;
      if (pending >= BLOB_SLICE_BYTES) fold();
    },
    close: async () => {
      fold();
      download(blob, fileName);
    },
    abort: async () => {
      parts = [];
      blob = new Blob([]);
    },
  };
}

/** Saves a Blob through a temporary link (the usual download). */
function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; give it a moment before the Blob may be freed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
