// Extension routes for credentials; not mounted in the hosted profile (app.ts).
import { createRouter } from '../../lib/create-app.ts';
import { revoke } from './credentials.handlers.ts';

export const credentialsRouter = createRouter().post('/credentials/:clientId/revoke', revoke);
