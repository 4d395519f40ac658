import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { addWatchers, listWatchers, removeWatchers } from './watchers.handlers.ts';

const base = '/:recordType{apps|elements|tasks|transactions}/:alias/:id/watchers';

export const watchersRouter = createRouter()
  .get(base, publishedQuery('listRecordWatchers'), listWatchers)
  .post(base, publishedQuery('createRecordWatchers'), jsonBodyLimit, addWatchers)
  .delete(base, publishedQuery('deleteRecordWatchers'), jsonBodyLimit, removeWatchers);
