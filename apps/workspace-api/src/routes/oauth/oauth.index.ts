// Wiring of the token endpoint (mounted at the root: `/oauth/token` has no version segment).
import { createRouter } from '../../lib/create-app.ts';
import { postToken } from './oauth.handlers.ts';

export const oauthRouter = createRouter().post('/oauth/token', postToken);
