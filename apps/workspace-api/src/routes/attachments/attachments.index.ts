import { createRouter } from '../../lib/create-app.ts';
import { jsonBodyLimit } from '../../lib/multipart.ts';
import {
  addUrlLink,
  getAttachment,
  getAttachmentContent,
  listAttachments,
  removeAttachment,
  uploadAttachment,
} from './attachments.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/attachments';

// `url-links` is registered before `/:attachmentId` so it is never taken for an id.
export const attachmentsRouter = createRouter()
  .get(base, listAttachments)
  .post(base, uploadAttachment)
  .post(`${base}/url-links`, jsonBodyLimit, addUrlLink)
  .get(`${base}/:attachmentId`, getAttachment)
  .delete(`${base}/:attachmentId`, removeAttachment)
  .get(`${base}/:attachmentId/content`, getAttachmentContent);
