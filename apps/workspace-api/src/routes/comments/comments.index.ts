import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { addComment, listComments } from './comments.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/comment';

export const commentsRouter = createRouter()
  .get(base, publishedQuery('listRecordComments'), listComments)
  .post(base, publishedQuery('createRecordComment'), jsonBodyLimit, addComment);
