import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './me.handlers.ts';
import * as routes from './me.routes.ts';

export const meRoutes: BoundRoute[] = [bind(routes.getMe, handlers.getMe)];
