import { z } from 'zod';

import { enumText, optionalText, requiredId, text } from './common.ts';

/** The largest file the API accepts: 250 MiB. */
export const MAX_UPLOAD_BYTES = 262_144_000;

/** The media type of a URL link in the attachment list. */
export const URL_LINK_MEDIA_TYPE = 'text/uri-list';

/**
 * An attachment as any server may send it; only `id` is needed. States are upper-cased text
 * (`VALID`, `PROCESSING`, `ERROR`; an unknown one shows as is). `contentUrl` is null for links and
 * when the reply has none.
 */
export const AttachmentSchema = z.object({
  id: requiredId(),
  name: text(),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  mediaType: text('application/octet-stream'),
  /** Bytes; `undefined` when the reply has none. */
  size: z.coerce
    .number()
    .int()
    .nonnegative()
    .nullish()
    .catch(undefined)
    .transform((value) => value ?? undefined),
  state: enumText().transform((value) => value ?? 'VALID'),
  viewState: enumText(),
  contentUrl: z
    .string()
    .nullish()
    .transform((value) => value || null),
  createdAt: optionalText(),
  /** Extension: hex sha256 of the stored bytes (absent for links). */
  sha256: optionalText(),
  /** Extension: the target of a URL link (`mediaType: text/uri-list`). */
  url: optionalText(),
  /** Extension: email of the uploader. */
  createdBy: optionalText(),
});
export type Attachment = z.output<typeof AttachmentSchema>;

/**
 * The attachment list is a bare array, as in the hosted API. An entry without an id (nothing can
 * be done with it) is left out rather than failing the list.
 */
export const AttachmentListSchema = z.array(z.unknown()).transform((raw) =>
  raw.flatMap((value) => {
    const parsed = AttachmentSchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  }),
);
export type AttachmentList = z.output<typeof AttachmentListSchema>;

const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Only absolute http(s) URLs are allowed');

export const UrlLinkInputSchema = z.object({
  url: httpUrl,
  description: z.string().max(1000).optional(),
});
export type UrlLinkInput = z.infer<typeof UrlLinkInputSchema>;

/** `POST .../attachments/url-links` answers 201 echoing the link (our API adds its `id`). */
export const UrlLinkSchema = z.object({
  url: text(),
  description: optionalText(),
  id: optionalText(),
});
export type UrlLink = z.output<typeof UrlLinkSchema>;

/**
 * The absolute http(s) URL in `value`, as the URL parser reads it (so what is checked is exactly
 * what a browser would follow), or undefined for anything else: `javascript:`, `data:`,
 * relative paths, and text a browser would read differently once it strips tabs or spaces.
 */
function httpHref(value: string | null | undefined): string | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return undefined;
  }
  return url.href;
}

/**
 * The http(s) address a URL-link attachment points at, if it is one: our API's `url`, else an
 * http(s) `name` or `contentUrl` of a `text/uri-list` entry (the hosted list has no `url`). Only
 * absolute http(s) URLs ever come out: a hostile server's `javascript:` or `data:` value in any of
 * these keys is never a link.
 *
 * @example
 * linkTarget({ mediaType: 'text/uri-list', name: 'https://example.com', url: undefined, contentUrl: null }); // 'https://example.com/'
 * linkTarget({ mediaType: 'text/uri-list', name: 'x', url: 'javascript:alert(1)', contentUrl: null }); // undefined
 */
export function linkTarget(
  attachment: Pick<Attachment, 'mediaType' | 'name' | 'url' | 'contentUrl'>,
): string | undefined {
  if (attachment.url) return httpHref(attachment.url);
  if (attachment.mediaType.toLowerCase() !== URL_LINK_MEDIA_TYPE) return undefined;
  for (const candidate of [attachment.name, attachment.contentUrl]) {
    const href = httpHref(candidate);
    if (href) return href;
  }
  return undefined;
}

/**
 * True when the attachment has bytes to download (a file with a content URL, not a link).
 *
 * @example
 * isDownloadable({ mediaType: 'application/pdf', contentUrl: '/v1/.../content', url: undefined, name: 'a.pdf' }); // true
 */
export function isDownloadable(
  attachment: Pick<Attachment, 'mediaType' | 'name' | 'url' | 'contentUrl'>,
): boolean {
  return attachment.contentUrl !== null && linkTarget(attachment) === undefined;
}
