import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './watchers.handlers.ts';
import * as routes from './watchers.routes.ts';

export const watchersRoutes: BoundRoute[] = [
  bind(routes.listWatchers, handlers.listWatchers),
  bind(routes.addWatchers, handlers.addWatchers),
  bind(routes.removeWatchers, handlers.removeWatchers),
];
