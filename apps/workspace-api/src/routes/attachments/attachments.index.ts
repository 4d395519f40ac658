import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
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
  .get(base, publishedQuery('listRecordAttachments'), listAttachments)
  .post(base, publishedQuery('createRecordAttachment'), uploadAttachment)
  .post(`${base}/url-links`, publishedQuery('createRecordLink'), jsonBodyLimit, addUrlLink)
  .get(`${base}/:attachmentId`, publishedQuery('getRecordAttachment'), getAttachment)
  .delete(`${base}/:attachmentId`, publishedQuery('deleteRecordAttachments'), removeAttachment)
  .get(
    `${base}/:attachmentId/content`,
    publishedQuery('downloadRecordAttachment'),
    getAttachmentContent,
  );
