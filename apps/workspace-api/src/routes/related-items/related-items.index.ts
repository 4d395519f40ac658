import { createRouter } from '../../lib/create-app.ts';
import { jsonBodyLimit } from '../../lib/multipart.ts';
import { addRelated, listRelated, removeRelated } from './related-items.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/related-items';

export const relatedItemsRouter = createRouter()
  .get(base, listRelated)
  .post(base, jsonBodyLimit, addRelated)
  .delete(`${base}/:relatedId`, removeRelated);
