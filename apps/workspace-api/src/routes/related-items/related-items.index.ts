import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './related-items.handlers.ts';
import * as routes from './related-items.routes.ts';

export const relatedItemsRoutes: BoundRoute[] = [
  bind(routes.listRelated, handlers.listRelated),
  bind(routes.addRelated, handlers.addRelated),
  bind(routes.removeRelated, handlers.removeRelated),
];
