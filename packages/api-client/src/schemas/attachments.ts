import { z } from 'zod';

/** The largest file the API accepts: 250 MiB. */
export const MAX_UPLOAD_BYTES = 262_144_000;

export const AttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mediaType: z.string(),
  size: z.number().int().nonnegative(),
  state: z.enum(['VALID', 'PROCESSING', 'ERROR']),
  viewState: z.enum(['PRIVATE', 'PUBLIC']),
  contentUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Extension: hex sha256 of the stored bytes (absent for links). */
  sha256: z.string().optional(),
  /** Extension: the target of a URL link (`mediaType: text/uri-list`). */
  url: z.string().optional(),
  /** Extension: email of the uploader. */
  createdBy: z.string().optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** The attachment list is a bare array, as in the hosted API. */
export const AttachmentListSchema = z.array(AttachmentSchema);
export type AttachmentList = z.infer<typeof AttachmentListSchema>;

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

/** `POST .../attachments/url-links` answers 201 echoing the link. */
export const UrlLinkSchema = z.object({
  url: z.string(),
  description: z.string().optional(),
  id: z.string().optional(),
});
export type UrlLink = z.infer<typeof UrlLinkSchema>;
