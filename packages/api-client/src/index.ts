// Sole entry of @wsc/api-client: the zod contract of the Records and Workspace API and of the BFF's
// own routes, and the typed clients of both.
export * from './schemas/common.ts';
export * from './schemas/problem.ts';
export * from './schemas/token.ts';
export * from './schemas/users.ts';
export * from './schemas/groups.ts';
export * from './schemas/records.ts';
export * from './schemas/attachments.ts';
export * from './schemas/activity.ts';
export * from './schemas/bff.ts';
export * from './schemas/bff-saved-views.ts';
export * from './schemas/bff-bulk-runs.ts';
export * from './errors.ts';
export * from './base-values.ts';
export * from './retry.ts';
export * from './parse-response.ts';
// Types only: the upload machinery is loaded on the first upload (client/attachments.ts), so a
// console that never uploads never downloads it.
export type {
  UploadProgress,
  UploadRequest,
  UploadSource,
  XhrConstructor,
  XhrLike,
  XhrProgressLike,
} from './upload.ts';
export * from './request-token.ts';
export * from './client.ts';
export * from './bff-client.ts';
export type {
  ApiClientOptions,
  CallOptions,
  PageOptions,
  WriteOptions,
} from './client/transport.ts';
export { path, queryString } from './client/transport.ts';
export type { RecordReply, SearchOptions } from './client/records.ts';
export type { DownloadOptions, UploadOptions } from './client/attachments.ts';
export type { AddedComment } from './client/activity.ts';
export type { UserListOptions } from './client/directory.ts';
export * from './filter.ts';
