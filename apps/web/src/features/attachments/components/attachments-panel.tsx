import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Download,
  ExternalLink,
  FileText,
  Link as LinkIcon,
  Loader2,
  Paperclip,
  Trash2,
  UploadCloud,
} from 'lucide-react';
import { useId, useRef, useState, useSyncExternalStore } from 'react';

import type { Attachment } from '@wsc/api-client';
import {
  isApiError,
  isDownloadable,
  linkTarget,
  MAX_UPLOAD_BYTES,
  UrlLinkInputSchema,
} from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

import {
  addUrlLink,
  attachmentsQueryOptions,
  downloadAttachment,
  removeAttachment,
} from '../api/attachments.ts';
import { mediaTypeLabel } from '../lib/media-type.ts';
import {
  commitDelete,
  pendingDeletes,
  scheduleDelete,
  undoDelete,
} from '../lib/pending-deletes.ts';
import { formatBytes } from '../lib/upload-speed.ts';
import { uploads } from '../lib/upload-store.ts';
import { UploadRow } from './upload-row.tsx';

const sameRecord = (a: RecordRef, b: RecordRef) =>
  a.recordType === b.recordType && a.alias === b.alias && a.id === b.id;

/**
 * A record's files and links: drop or choose several files (queued through the upload manager),
 * add http(s) links, download, and remove with a 6 s Undo (the DELETE waits for the window).
 */
export function AttachmentsPanel({ record }: { record: RecordRef }) {
  const queryClient = useQueryClient();
  const options = attachmentsQueryOptions(record);
  const query = useQuery(options);
  const hidden = useSyncExternalStore(pendingDeletes.subscribe, pendingDeletes.getSnapshot);
  const allUploads = useSyncExternalStore(uploads.subscribe, uploads.getSnapshot);
  const mine = allUploads.filter((u) => sameRecord(u.target, record));
  const headingId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });

  const keyOf = (attachment: Attachment) =>
    `${record.recordType}/${record.alias}/${record.id}/${attachment.id}`;

  function remove(attachment: Attachment) {
    const key = keyOf(attachment);
    scheduleDelete(key, () =>
      removeAttachment(record, attachment.id).then(
        () => refresh(),
        (error: unknown) => {
          // 404: already gone, which is what was asked.
          if (isApiError(error) && error.status === 404) return refresh();
          toast({ message: `Could not remove ${attachment.name}: ${describeError(error).title}` });
        },
      ),
    );
    toast({
      message: `Removed ${attachment.name}.`,
      action: { label: 'Undo', onClick: () => undoDelete(key) },
      onExpire: () => void commitDelete(key),
    });
  }

  const visible = (query.data ?? []).filter((a) => !hidden.has(keyOf(a)));

  return (
    <section aria-labelledby={headingId} className="grid content-start gap-4 px-6 py-4">
      <h3 id={headingId} className="sr-only">
        Attachments
      </h3>
      <DropZone onFiles={(files) => uploads.enqueue(record, files, () => void refresh())} />
      {mine.length > 0 && (
        <div className="grid gap-1">
          <h4 className="text-muted-foreground text-xs font-medium tracking-wide uppercase">
            Uploads
          </h4>
          <ul className="divide-y rounded-md border" aria-label="Uploads to this record">
            {mine.map((upload) => (
              <UploadRow key={upload.key} upload={upload} manager={uploads} />
            ))}
          </ul>
        </div>
      )}
      <LinkForm record={record} onAdded={() => void refresh()} />
      <div className="grid gap-1">
        <h4 className="text-muted-foreground text-xs font-medium tracking-wide uppercase">
          Files and links{query.data ? ` · ${visible.length}` : ''}
        </h4>
        {query.isPending ? (
          <div
            className="grid gap-2"
            role="status"
            aria-busy="true"
            aria-label="Loading attachments"
          >
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        ) : query.isError ? (
          <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
        ) : visible.length === 0 ? (
          <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
            <Paperclip className="size-5" aria-hidden="true" />
            No files or links yet.
          </div>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Attachments">
            {visible.map((attachment) => (
              <AttachmentItem
                key={attachment.id}
                record={record}
                attachment={attachment}
                onRemove={() => remove(attachment)}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function AttachmentItem({
  record,
  attachment,
  onRemove,
}: {
  record: RecordRef;
  attachment: Attachment;
  onRemove: () => void;
}) {
  // Links are told by their media type (the hosted list has no `url` key); a file the service
  // gives no content URL for cannot be downloaded, and the row says so instead of failing.
  const target = linkTarget(attachment);
  const isLink = target !== undefined || attachment.mediaType.toLowerCase() === 'text/uri-list';
  const downloadable = isDownloadable(attachment);
  const Icon = isLink ? LinkIcon : FileText;
  const [progress, setProgress] = useState<number | null>(null);
  const download = useMutation({
    mutationFn: () =>
      downloadAttachment(record, attachment, (loaded, total) =>
        setProgress(total > 0 ? Math.floor((loaded / total) * 100) : null),
      ),
    onSettled: () => setProgress(null),
    onError: (error) =>
      toast({ message: `Could not download ${attachment.name}: ${describeError(error).title}` }),
  });
  return (
    <li className="flex items-center gap-3 px-3 py-2" data-testid="attachment-row">
      <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-0.5">
        {target ? (
          <a
            href={target}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary truncate text-sm font-medium underline-offset-4 hover:underline"
          >
            {attachment.description || attachment.name}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          <span className="truncate text-sm font-medium" title={attachment.name}>
            {attachment.name}
          </span>
        )}
        <p className="text-muted-foreground flex flex-wrap gap-x-1.5 text-xs">
          <span>{mediaTypeLabel(attachment.mediaType)}</span>
          {!isLink && attachment.size !== undefined && (
            <span>· {formatBytes(attachment.size)}</span>
          )}
          {target && target !== attachment.name && <span className="truncate">· {target}</span>}
          {attachment.createdAt && (
            <span>
              · <time dateTime={attachment.createdAt}>{formatDateTime(attachment.createdAt)}</time>
            </span>
          )}
          {attachment.createdBy && <span>· {attachment.createdBy}</span>}
        </p>
        {!isLink && attachment.description && (
          <p className="text-muted-foreground truncate text-xs">{attachment.description}</p>
        )}
      </div>
      {attachment.state !== 'VALID' && (
        <Badge variant={attachment.state === 'ERROR' ? 'destructive' : 'secondary'}>
          {attachment.state === 'ERROR'
            ? 'Error'
            : attachment.state === 'PROCESSING'
              ? 'Processing'
              : attachment.state.charAt(0) + attachment.state.slice(1).toLowerCase()}
        </Badge>
      )}
      {target ? (
        <Button variant="ghost" size="icon-sm" asChild>
          <a
            href={target}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Open ${attachment.name} in a new tab`}
          >
            <ExternalLink aria-hidden="true" />
          </a>
        </Button>
      ) : !downloadable ? (
        <span className="text-muted-foreground text-xs" data-testid="not-downloadable">
          {isLink ? 'Link without an address' : 'No content to download'}
        </span>
      ) : (
        <Button
          variant="ghost"
          size={download.isPending ? 'xs' : 'icon-sm'}
          aria-label={`Download ${attachment.name}`}
          aria-busy={download.isPending || undefined}
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? (
            <>
              <Loader2 className="animate-spin" aria-hidden="true" />
              <span className="tabular-nums">{progress ?? 0}%</span>
            </>
          ) : (
            <Download aria-hidden="true" />
          )}
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Remove ${attachment.name}`}
        onClick={onRemove}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}

/** Drop target plus a file chooser: several files at once, either way. */
function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const hintId = useId();
  return (
    <div
      data-testid="drop-zone"
      onDragEnter={(event) => {
        event.preventDefault();
        depth.current++;
        setDragging(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
      className={cn(
        'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors',
        dragging ? 'border-primary bg-accent' : 'border-border',
      )}
    >
      <UploadCloud className="text-muted-foreground size-6" aria-hidden="true" />
      <p className="text-sm">
        <span className="font-medium">Drop files here</span>
        <span className="text-muted-foreground"> or</span>
      </p>
      <Button
        variant="outline"
        size="sm"
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
      >
        Choose files
      </Button>
      <p id={hintId} className="text-muted-foreground text-xs">
        Several at once; up to {formatBytes(MAX_UPLOAD_BYTES)} each.
      </p>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to upload"
        data-testid="file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Reset so choosing the same file again fires another change.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}

/** Adds an http(s) link with an optional description; other schemes are refused here and by the API. */
function LinkForm({ record, onAdded }: { record: RecordRef; onAdded: () => void }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (link: { url: string; description?: string }) => addUrlLink(record, link),
    onSuccess: () => {
      setUrl('');
      setDescription('');
      toast({ message: 'Link added.' });
      onAdded();
    },
  });
  const serverError =
    mutation.error && isApiError(mutation.error)
      ? (mutation.error.errors.find((e) => e.field === 'url')?.message ??
        describeError(mutation.error).description)
      : mutation.error
        ? describeError(mutation.error).description
        : null;
  const error = invalid ?? serverError;

  return (
    <form
      noValidate
      aria-label="Add a link"
      className="grid gap-2 rounded-md border p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = UrlLinkInputSchema.safeParse({
          url: url.trim(),
          description: description.trim() || undefined,
        });
        if (!parsed.success) {
          setInvalid(
            url.trim() === ''
              ? 'Enter a URL.'
              : 'Only absolute http:// or https:// links are allowed.',
          );
          return;
        }
        setInvalid(null);
        mutation.mutate(parsed.data);
      }}
    >
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-url`}>Link URL</Label>
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://…"
            value={url}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setUrl(event.target.value);
              setInvalid(null);
            }}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-description`}>Description</Label>
          <Input
            id={`${id}-description`}
            maxLength={1000}
            placeholder="Optional"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
      </div>
      <div className="flex items-center gap-2">
        {error && (
          <p id={`${id}-error`} role="alert" className="text-destructive mr-auto text-sm">
            {error}
          </p>
        )}
        <Button
          type="submit"
          size="sm"
          variant="secondary"
          className="ml-auto"
          disabled={mutation.isPending}
        >
          {mutation.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <LinkIcon aria-hidden="true" />
          )}
          Add link
        </Button>
      </div>
    </form>
  );
}
