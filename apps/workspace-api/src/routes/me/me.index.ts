import { createRouter } from '../../lib/create-app.ts';
import { getMe } from './me.handlers.ts';

export const meRouter = createRouter().get('/me', getMe);
