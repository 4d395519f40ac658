import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './users.handlers.ts';
import * as routes from './users.routes.ts';

export const usersRoutes: BoundRoute[] = [
  bind(routes.listUsers, handlers.listUsers),
  bind(routes.createUser, handlers.createUser),
  bind(routes.getUser, handlers.getUser),
  bind(routes.deactivate, handlers.deactivate),
];
