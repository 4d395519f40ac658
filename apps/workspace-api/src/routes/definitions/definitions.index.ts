import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './definitions.handlers.ts';
import * as routes from './definitions.routes.ts';

export const definitionsRoutes: BoundRoute[] = [
  bind(routes.listDefinitions, handlers.listDefinitions),
];
