// Kept apart from the upload store so the shell can listen for the first upload without loading
// the store (or the tray) on first load.

/** Window event fired when the first upload is queued in this page's life. */
export const UPLOADS_STARTED_EVENT = 'wsc:uploads-started';

/**
 * True once any upload was queued in this page (the tray host may mount after the event fired).
 *
 * @example
 * if (uploadsStarted()) showTray();
 */
export function uploadsStarted(): boolean {
  return (globalThis as { __wscUploadsStarted?: boolean }).__wscUploadsStarted === true;
}

/**
 * Marks uploads as started and tells the shell, once.
 *
 * @example
 * signalUploadsStarted();
 */
export function signalUploadsStarted(): void {
  if (uploadsStarted()) return;
  (globalThis as { __wscUploadsStarted?: boolean }).__wscUploadsStarted = true;
  globalThis.dispatchEvent?.(new Event(UPLOADS_STARTED_EVENT));
}
