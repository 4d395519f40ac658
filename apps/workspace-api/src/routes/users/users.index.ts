import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { createUser, deactivate, getUser, listUsers } from './users.handlers.ts';

export const usersRouter = createRouter()
  .get('/users', publishedQuery('listUsers'), listUsers)
  .post('/users', publishedQuery('createUser'), jsonBodyLimit, createUser)
  .get('/users/:userId', publishedQuery('getUser'), getUser)
  .post('/users/:userId/deactivate', publishedQuery('deactivateUser'), deactivate);
