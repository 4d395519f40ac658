import { createRouter } from '../../lib/create-app.ts';
import { jsonBodyLimit } from '../../lib/multipart.ts';
import { addWatchers, listWatchers, removeWatchers } from './watchers.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/watchers';

export const watchersRouter = createRouter()
  .get(base, listWatchers)
  .post(base, jsonBodyLimit, addWatchers)
  .delete(base, jsonBodyLimit, removeWatchers);
