import { ChevronDown, ChevronUp, Upload as UploadIcon } from 'lucide-react';
import { useId, useState, useSyncExternalStore } from 'react';

import { Button } from '@/components/ui/button.tsx';

import { uploads } from '../lib/upload-store.ts';
import { UploadRow } from './upload-row.tsx';

/**
 * The console-wide upload tray: every file queued in this tab, whatever page the user is on.
 * Loaded on demand by {@link UploadTrayHost}, so it costs nothing until the first upload.
 */
export function UploadTray() {
  const items = useSyncExternalStore(uploads.subscribe, uploads.getSnapshot, uploads.getSnapshot);
  const [open, setOpen] = useState(true);
  const listId = useId();
  if (items.length === 0) return null;
  const running = items.filter((u) => u.status === 'uploading' || u.status === 'queued').length;
  const done = items.filter((u) => u.status === 'done').length;
  const failed = items.filter((u) => u.status === 'error' || u.status === 'refused').length;
  const summary = running
    ? `Uploading ${running} file${running === 1 ? '' : 's'}`
    : `${done} of ${items.length} uploaded${failed ? `, ${failed} failed` : ''}`;

  return (
    <section
      aria-label="Uploads"
      data-testid="upload-tray"
      className="bg-popover text-popover-foreground fixed right-4 bottom-4 z-40 w-[min(24rem,calc(100vw-2rem))] overflow-hidden rounded-lg border shadow-lg"
    >
      <div className="flex items-center gap-2 border-b px-3 py-2">
        <UploadIcon className="text-muted-foreground size-4" aria-hidden="true" />
        <h2 className="flex-1 text-sm font-semibold" aria-live="polite">
          {summary}
        </h2>
        {running === 0 && (
          <Button variant="ghost" size="xs" onClick={() => uploads.clearFinished()}>
            Clear
          </Button>
        )}
        <Button
          variant="ghost"
          size="icon-sm"
          className="size-7"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={open ? 'Collapse uploads' : 'Expand uploads'}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <ChevronDown aria-hidden="true" /> : <ChevronUp aria-hidden="true" />}
        </Button>
      </div>
      <ul id={listId} hidden={!open} className="max-h-72 divide-y overflow-y-auto">
        {items.map((upload) => (
          <UploadRow key={upload.key} upload={upload} manager={uploads} showTarget />
        ))}
      </ul>
    </section>
  );
}
