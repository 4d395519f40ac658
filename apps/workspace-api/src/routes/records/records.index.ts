import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './records.handlers.ts';
import * as routes from './records.routes.ts';

export const recordsRoutes: BoundRoute[] = [
  bind(routes.searchRecords, handlers.searchRecords),
  bind(routes.createRecord, handlers.createRecord),
  bind(routes.getRecord, handlers.getRecord),
  bind(routes.putRecord, handlers.putRecord),
];
