import { Link } from '@tanstack/react-router';
import { Ban, CheckCircle2, CircleAlert, Clock, RotateCcw, X } from 'lucide-react';

import { Button } from '@/components/ui/button.tsx';
import { ProgressFill } from '@/components/ui/progress-fill.tsx';
import { cn } from '@/lib/utils.ts';

import type { Upload, UploadManager } from '../lib/upload-store.ts';
import { formatBytes } from '../lib/upload-speed.ts';

const STATUS_LABEL: Record<Upload['status'], string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  done: 'Uploaded',
  error: 'Failed',
  canceled: 'Canceled',
  refused: 'Not sent',
};

/**
 * Percent of the body sent, for the progress bar.
 *
 * @example
 * percent({ loaded: 50, total: 200 }); // 25
 */
export function percent(upload: Pick<Upload, 'loaded' | 'total' | 'status'>): number {
  if (upload.status === 'done') return 100;
  if (upload.total <= 0) return 0;
  return Math.min(100, Math.floor((upload.loaded / upload.total) * 100));
}

/** One file in the upload manager: status, progress, speed, and cancel / retry / dismiss. */
export function UploadRow({
  upload,
  manager,
  showTarget = false,
}: {
  upload: Upload;
  manager: UploadManager;
  showTarget?: boolean;
}) {
  const value = percent(upload);
  const Icon =
    upload.status === 'done'
      ? CheckCircle2
      : upload.status === 'error' || upload.status === 'refused'
        ? CircleAlert
        : upload.status === 'canceled'
          ? Ban
          : Clock;
  const failed = upload.status === 'error' || upload.status === 'refused';
  return (
    <li
      className="grid gap-1.5 px-3 py-2"
      data-testid="upload-row"
      data-status={upload.status}
      aria-label={`${upload.name}: ${STATUS_LABEL[upload.status]}`}
    >
      <div className="flex min-w-0 items-center gap-2">
        <Icon
          aria-hidden="true"
          className={cn(
            'size-4 shrink-0',
            upload.status === 'done' && 'text-primary',
            failed && 'text-destructive',
            (upload.status === 'queued' || upload.status === 'canceled') && 'text-muted-foreground',
          )}
        />
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={upload.name}>
          {upload.name}
        </span>
        {(upload.status === 'queued' || upload.status === 'uploading') && (
          <Button
            variant="ghost"
            size="icon-sm"
            className="size-7"
            aria-label={`Cancel upload of ${upload.name}`}
            onClick={() => manager.cancel(upload.key)}
          >
            <X aria-hidden="true" />
          </Button>
        )}
        {(upload.status === 'error' || upload.status === 'canceled') && (
          <Button
            variant="ghost"
            size="icon-sm"
            className="size-7"
            aria-label={`Retry upload of ${upload.name}`}
            onClick={() => manager.retry(upload.key)}
          >
            <RotateCcw aria-hidden="true" />
          </Button>
        )}
        {upload.status !== 'queued' && upload.status !== 'uploading' && (
          <Button
            variant="ghost"
            size="icon-sm"
            className="size-7"
            aria-label={`Dismiss ${upload.name}`}
            onClick={() => manager.dismiss(upload.key)}
          >
            <X aria-hidden="true" />
          </Button>
        )}
      </div>
      {(upload.status === 'uploading' || upload.status === 'queued') && (
        <div
          role="progressbar"
          aria-label={`Upload of ${upload.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          className="bg-muted h-1.5 overflow-hidden rounded-full"
        >
          <ProgressFill fraction={value / 100} className="duration-200" />
        </div>
      )}
      <p
        className={cn(
          'text-muted-foreground flex flex-wrap gap-x-2 text-xs tabular-nums',
          failed && 'text-destructive',
        )}
      >
        <span data-testid="upload-status">{STATUS_LABEL[upload.status]}</span>
        {upload.status === 'uploading' && (
          <>
            <span>
              {value}% · {formatBytes(Math.min(upload.loaded, upload.size))} of{' '}
              {formatBytes(upload.size)}
            </span>
            <span data-testid="upload-speed">
              {upload.speed > 0 ? `${formatBytes(upload.speed)}/s` : 'starting…'}
            </span>
          </>
        )}
        {upload.status !== 'uploading' && <span>{formatBytes(upload.size)}</span>}
        {showTarget && (
          <Link
            to="/records/$recordType/$alias/$id"
            params={upload.target}
            search={{ tab: 'attachments' }}
            className="hover:text-foreground underline-offset-4 hover:underline"
          >
            {upload.target.id}
          </Link>
        )}
        {upload.error && <span className="basis-full">{upload.error}</span>}
      </p>
    </li>
  );
}
