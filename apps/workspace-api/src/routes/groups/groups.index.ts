import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './groups.handlers.ts';
import * as routes from './groups.routes.ts';

export const groupsRoutes: BoundRoute[] = [
  bind(routes.listGroups, handlers.listGroups),
  bind(routes.getGroup, handlers.getGroup),
  bind(routes.listMembers, handlers.listMembers),
  bind(routes.addMembers, handlers.addMembers),
  bind(routes.removeMembers, handlers.removeMembers),
];
