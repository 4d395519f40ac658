// Extension routes for credentials; not mounted in the hosted profile (`profile: 'extended'`).
import type { BoundRoute } from '../../lib/route.ts';
import { bind } from '../../lib/route.ts';
import * as handlers from './credentials.handlers.ts';
import * as routes from './credentials.routes.ts';

export const credentialsRoutes: BoundRoute[] = [bind(routes.revoke, handlers.revoke)];
