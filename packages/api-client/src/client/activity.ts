// A record's activity: its watchers and its comments.
import type { Comment } from '../schemas/activity.ts';
import type { RecordType } from '../schemas/common.ts';
import type { PageOptions, Transport, WriteOptions } from './transport.ts';
import {
  CommentPagedListSchema,
  CommentSchema,
  WatcherPagedListSchema,
} from '../schemas/activity.ts';
import { recordPath } from './records.ts';
import { pageQuery } from './transport.ts';

/** `addComment`'s answer: the new comment's id, and the comment itself where the server sent it. */
export interface AddedComment {
  id: string;
  comment?: Comment;
}

/**
 * The watcher and comment methods of the API client.
 *
 * @example
 * const api = { ...activityMethods(createTransport({ baseUrl })) };
 */
export function activityMethods(t: Transport) {
  const { json, empty, hosted } = t;
  const rec = recordPath;

  return {
    // ---- watchers ----------------------------------------------------------------------------
    /** `GET .../watchers`: paged watchers. */
    listWatchers: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/watchers`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        WatcherPagedListSchema,
      ),
    /** `POST .../watchers {users:[email]}` -> 201; unknown or inactive emails -> 422. */
    addWatchers: (
      rt: RecordType,
      alias: string,
      id: string,
      emails: string[],
      opts?: WriteOptions,
    ) =>
      empty({
        method: 'POST',
        path: `${rec(rt, alias, id)}/watchers`,
        json: { users: emails },
        signal: opts?.signal,
        source: opts?.source,
      }),
    /** `DELETE .../watchers {users:[email]}` (a DELETE with a JSON body) -> 200. */
    removeWatchers: (
      rt: RecordType,
      alias: string,
      id: string,
      emails: string[],
      opts?: WriteOptions,
    ) =>
      empty({
        method: 'DELETE',
        path: `${rec(rt, alias, id)}/watchers`,
        json: { users: emails },
        signal: opts?.signal,
        source: opts?.source,
      }),

    // ---- comments ----------------------------------------------------------------------------
    /** `GET .../comment`: paged comments, oldest first. */
    listComments: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/comment`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        CommentPagedListSchema,
      ),
    /**
     * `POST .../comment`. Extended: JSON `{contents}` with `Accept: application/json` -> 201 Comment
     * (an extension). Hosted: the published form, a `text/plain` body -> 201 with the new id as text.
     */
    addComment: async (
      rt: RecordType,
      alias: string,
      id: string,
      text: string,
      opts?: WriteOptions,
    ): Promise<AddedComment> => {
      if (!hosted) {
        const comment = await json(
          {
            method: 'POST',
            path: `${rec(rt, alias, id)}/comment`,
            json: { contents: text },
            signal: opts?.signal,
            source: opts?.source,
          },
          CommentSchema,
        );
        return { id: comment.id, comment };
      }
      const response = await t.send({
        method: 'POST',
        path: `${rec(rt, alias, id)}/comment`,
        text,
        headers: { Accept: 'text/plain' },
        signal: opts?.signal,
        source: opts?.source,
      });
      return { id: (await response.text()).trim() };
    },
  };
}
