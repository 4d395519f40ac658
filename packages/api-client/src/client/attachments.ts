// Attachments of a record: files (uploaded, streamed down) and URL links.
import type { Attachment, UrlLink } from '../schemas/attachments.ts';
import type { RecordType } from '../schemas/common.ts';
import type { UploadProgress, UploadSource } from '../upload.ts';
import type { CallOptions, Transport, WriteOptions } from './transport.ts';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from '../schemas/attachments.ts';
import { recordPath } from './records.ts';
import { path } from './transport.ts';

export interface UploadOptions extends WriteOptions {
  description?: string;
  onProgress?: (progress: UploadProgress) => void;
}

export interface DownloadOptions extends CallOptions {
  /** A `Range` header value, e.g. `bytes=0-1023`: the answer is then 206. */
  range?: string;
}

/**
 * The attachment methods of the API client.
 *
 * @example
 * const api = { ...attachmentMethods(createTransport({ baseUrl })) };
 */
export function attachmentMethods(t: Transport) {
  const { json, optionalJson, empty } = t;
  const rec = recordPath;
  const att = (rt: RecordType, alias: string, id: string, attachmentId: string) =>
    `${rec(rt, alias, id)}${path`/attachments/${attachmentId}`}`;

  return {
    /** `GET .../attachments`: a bare array, links included (`mediaType: text/uri-list`). */
    listAttachments: (rt: RecordType, alias: string, id: string, opts?: CallOptions) =>
      json(
        { method: 'GET', path: `${rec(rt, alias, id)}/attachments`, signal: opts?.signal },
        AttachmentListSchema,
      ),
    /** `GET .../attachments/{attachmentId}`: one attachment's metadata. */
    getAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: CallOptions,
    ) =>
      json(
        { method: 'GET', path: att(rt, alias, id, attachmentId), signal: opts?.signal },
        AttachmentSchema,
      ),
    /**
     * `POST .../attachments` multipart (`file`, `description`) -> 202, with the Attachment where the
     * server sends one (ours does; the published reply has no body: `undefined` then). Files over
     * 250 MiB fail with ApiError 413 `file_too_large` before any request. Progress via `onProgress`.
     */
    uploadAttachment: async (
      rt: RecordType,
      alias: string,
      id: string,
      file: UploadSource,
      opts?: UploadOptions,
    ): Promise<Attachment | undefined> => {
      // Loaded on the first upload: a console that never uploads never downloads it.
      const { assertUploadSize, sendUpload, uploadSize } = await import('../upload.ts');
      assertUploadSize(await uploadSize(file));
      return optionalJson(
        {
          method: 'POST',
          path: `${rec(rt, alias, id)}/attachments`,
          signal: opts?.signal,
          source: opts?.source,
          transport: (target, headers) =>
            sendUpload({
              url: target,
              headers,
              file,
              description: opts?.description,
              onProgress: opts?.onProgress,
              signal: opts?.signal,
              fetch: t.fetch,
            }),
        },
        AttachmentSchema,
      );
    },
    /** `POST .../attachments/url-links {url, description?}` -> 201 echo (when a body comes). */
    addUrlLink: (
      rt: RecordType,
      alias: string,
      id: string,
      link: { url: string; description?: string },
      opts?: WriteOptions,
    ): Promise<UrlLink | undefined> =>
      optionalJson(
        {
          method: 'POST',
          path: `${rec(rt, alias, id)}/attachments/url-links`,
          json: link,
          signal: opts?.signal,
          source: opts?.source,
        },
        UrlLinkSchema,
      ),
    /** `DELETE .../attachments/{attachmentId}` -> 200. */
    removeAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: WriteOptions,
    ) =>
      empty({
        method: 'DELETE',
        path: att(rt, alias, id, attachmentId),
        signal: opts?.signal,
        source: opts?.source,
      }),
    /** The content URL (for `<a href download>` in the browser, where the BFF adds the token). */
    attachmentContentUrl: (rt: RecordType, alias: string, id: string, attachmentId: string) =>
      t.url({ path: `${att(rt, alias, id, attachmentId)}/content` }),
    /** `GET .../content`: the raw Response (200, or 206 with `range`), body unread, for streaming. */
    downloadAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: DownloadOptions,
    ) =>
      t.send({
        method: 'GET',
        path: `${att(rt, alias, id, attachmentId)}/content`,
        headers: { Accept: '*/*', ...(opts?.range ? { Range: opts.range } : {}) },
        signal: opts?.signal,
      }),
  };
}
