// Wiring of the token endpoint (mounted at the root: `/oauth/token` has no version segment).
import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './oauth.handlers.ts';
import * as routes from './oauth.routes.ts';

export const oauthRoutes: BoundRoute[] = [bind(routes.postToken, handlers.postToken)];
