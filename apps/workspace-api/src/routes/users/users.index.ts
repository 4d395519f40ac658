import { createRouter } from '../../lib/create-app.ts';
import { createUser, deactivate, getUser, listUsers } from './users.handlers.ts';

export const usersRouter = createRouter()
  .get('/users', listUsers)
  .post('/users', createUser)
  .get('/users/:userId', getUser)
  .post('/users/:userId/deactivate', deactivate);
