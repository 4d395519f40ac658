// Generic record routes. `recordType` is constrained so that other top-level paths never reach them.
import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { createRecord, getRecord, putRecord, searchRecords } from './records.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias';

export const recordsRouter = createRouter()
  .get(base, publishedQuery('recordList'), searchRecords)
  .post(base, publishedQuery('createRecord'), jsonBodyLimit, createRecord)
  .get(`${base}/:id`, publishedQuery('getRecord'), getRecord)
  .put(`${base}/:id`, publishedQuery('updateRecord'), jsonBodyLimit, putRecord);
