// Generic record routes. `recordType` is constrained so that other top-level paths never reach them.
import { createRouter } from '../../lib/create-app.ts';
import { createRecord, getRecord, putRecord, searchRecords } from './records.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias';

export const recordsRouter = createRouter()
  .get(base, searchRecords)
  .post(base, createRecord)
  .get(`${base}/:id`, getRecord)
  .put(`${base}/:id`, putRecord);
