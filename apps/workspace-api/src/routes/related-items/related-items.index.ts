import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { addRelated, listRelated, removeRelated } from './related-items.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/related-items';

export const relatedItemsRouter = createRouter()
  .get(base, publishedQuery('getRecordRelations'), listRelated)
  .post(base, publishedQuery('createRecordRelatedItems'), jsonBodyLimit, addRelated)
  .delete(`${base}/:relatedId`, publishedQuery('deleteRecordRelatedItems'), removeRelated);
