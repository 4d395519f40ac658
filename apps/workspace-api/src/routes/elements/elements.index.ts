import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './elements.handlers.ts';
import * as routes from './elements.routes.ts';

export const elementsRoutes: BoundRoute[] = [bind(routes.getElement, handlers.getElement)];
