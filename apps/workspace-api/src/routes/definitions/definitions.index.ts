import { createRouter } from '../../lib/create-app.ts';
import { listDefinitions } from './definitions.handlers.ts';

export const definitionsRouter = createRouter().get('/definitions', listDefinitions);
