import { queryOptions } from '@tanstack/react-query';

import type { AttachmentList, UrlLinkInput } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { api } from '@/lib/api.ts';
import { recordKeys } from '@/queries/records.ts';

/** How often the list is re-read while the service is still processing an upload. */
const PROCESSING_POLL_MS = 3_000;

/**
 * A record's attachments and links (a bare array, oldest first). While any is still PROCESSING
 * (the published upload answers 202 before the file is ready), the list is re-read every 3 s.
 *
 * @example
 * const { data } = useQuery(attachmentsQueryOptions({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }));
 */
export function attachmentsQueryOptions(record: RecordRef) {
  return queryOptions({
    queryKey: recordKeys.attachments(record),
    queryFn: ({ signal }) =>
      api.listAttachments(record.recordType, record.alias, record.id, { signal }),
    staleTime: 0,
    refetchInterval: (query) =>
      (query.state.data as AttachmentList | undefined)?.some((a) => a.state === 'PROCESSING')
        ? PROCESSING_POLL_MS
        : false,
  });
}

/**
 * Adds a URL link (the API refuses anything but absolute http(s) URLs).
 *
 * @example
 * await addUrlLink(record, { url: 'https://status.example.com', description: 'Status page' });
 */
export function addUrlLink(record: RecordRef, link: UrlLinkInput) {
  return api.addUrlLink(record.recordType, record.alias, record.id, link, {
    source: 'attachments',
  });
}

/**
 * Deletes an attachment or link, and its stored bytes.
 *
 * @example
 * await removeAttachment(record, attachment.id);
 */
export function removeAttachment(record: RecordRef, attachmentId: string) {
  return api.removeAttachment(record.recordType, record.alias, record.id, attachmentId, {
    source: 'attachments',
  });
}

/**
 * Downloads a file through the BFF (`/api/v1/.../content`) and hands it to the browser as a file
 * save. A plain `<a href>` cannot be used: the BFF requires `X-CSRF: 1` on every `/api` request,
 * which only script can send. The body is read as a stream so progress can be shown; the browser
 * keeps a large Blob on disk rather than in memory.
 *
 * @example
 * await downloadAttachment(record, attachment, (loaded, total) => setProgress(loaded / total));
 */
export async function downloadAttachment(
  record: RecordRef,
  attachment: { id: string; name: string; size: number | undefined },
  onProgress?: (loaded: number, total: number) => void,
): Promise<void> {
  const response = await api.downloadAttachment(
    record.recordType,
    record.alias,
    record.id,
    attachment.id,
  );
  const total = Number(response.headers.get('content-length')) || attachment.size || 0;
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const chunks: BlobPart[] = [];
  let loaded = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress?.(loaded, total);
    }
  } else {
    chunks.push(await response.arrayBuffer());
  }
  const url = URL.createObjectURL(new Blob(chunks, { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = attachment.name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start the save before the Blob is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
