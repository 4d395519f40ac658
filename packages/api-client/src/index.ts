// Sole entry of @wsc/api-client: the zod contract of the Records and Workspace API and its client.
export * from './schemas/common.ts';
export * from './schemas/problem.ts';
export * from './schemas/token.ts';
export * from './schemas/users.ts';
export * from './schemas/groups.ts';
export * from './schemas/records.ts';
export * from './schemas/attachments.ts';
export * from './schemas/activity.ts';
export * from './schemas/bff.ts';
export * from './errors.ts';
export * from './retry.ts';
export * from './parse-response.ts';
export * from './upload.ts';
export * from './request-token.ts';
export * from './client.ts';
export * from './filter.ts';
