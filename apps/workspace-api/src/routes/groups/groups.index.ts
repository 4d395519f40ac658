import { createRouter } from '../../lib/create-app.ts';
import { addMembers, getGroup, listGroups, listMembers, removeMembers } from './groups.handlers.ts';

export const groupsRouter = createRouter()
  .get('/groups', listGroups)
  .get('/groups/:groupId', getGroup)
  .get('/groups/:groupId/users', listMembers)
  .post('/groups/:groupId/users', addMembers)
  .delete('/groups/:groupId/users', removeMembers);
