import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './comments.handlers.ts';
import * as routes from './comments.routes.ts';

export const commentsRoutes: BoundRoute[] = [
  bind(routes.listComments, handlers.listComments),
  bind(routes.addComment, handlers.addComment),
];
