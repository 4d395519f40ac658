// `url-links` is mounted before `/{attachmentId}` so it is never taken for an id.
import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './attachments.handlers.ts';
import * as routes from './attachments.routes.ts';

export const attachmentsRoutes: BoundRoute[] = [
  bind(routes.listAttachments, handlers.listAttachments),
  bind(routes.uploadAttachment, handlers.uploadAttachment),
  bind(routes.addUrlLink, handlers.addUrlLink),
  bind(routes.getAttachment, handlers.getAttachment),
  bind(routes.removeAttachment, handlers.removeAttachment),
  bind(routes.getAttachmentContent, handlers.getAttachmentContent),
];
