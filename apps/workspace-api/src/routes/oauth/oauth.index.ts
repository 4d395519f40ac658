// Wiring of the token endpoint (mounted at the root: `/oauth/token` has no version segment).
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { postToken } from './oauth.handlers.ts';

export const oauthRouter = createRouter().post(
  '/oauth/token',
  publishedQuery('requestAccessToken'),
  postToken,
);
