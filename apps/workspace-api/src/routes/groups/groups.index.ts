import { jsonBodyLimit } from '../../lib/body.ts';
import { createRouter } from '../../lib/create-app.ts';
import { publishedQuery } from '../../lib/profile.ts';
import { addMembers, getGroup, listGroups, listMembers, removeMembers } from './groups.handlers.ts';

export const groupsRouter = createRouter()
  .get('/groups', publishedQuery('listGroups'), listGroups)
  .get('/groups/:groupId', publishedQuery('getGroup'), getGroup)
  .get('/groups/:groupId/users', publishedQuery('listGroupUsers'), listMembers)
  .post('/groups/:groupId/users', publishedQuery('addUsersToGroup'), jsonBodyLimit, addMembers)
  .delete(
    '/groups/:groupId/users',
    publishedQuery('removeUsersFromGroup'),
    jsonBodyLimit,
    removeMembers,
  );
