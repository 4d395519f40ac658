import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, MessageSquare, Send } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import { COMMENT_MAX_LENGTH } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { personName } from '@/lib/people.ts';

import { addComment, commentsQueryOptions, oldestFirst } from '../api/comments.ts';
import { draftKey, readDraft, saveDraft } from '../lib/drafts.ts';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * A record's comment thread (oldest first, author and time) and a composer: Ctrl/Cmd+Enter sends,
 * and the draft is kept per record while the user moves around. Comment text is rendered as plain
 * text nodes, never as HTML.
 */
export function CommentsPanel({ record }: { record: RecordRef }) {
  const queryClient = useQueryClient();
  const options = commentsQueryOptions(record);
  const query = useInfiniteQuery(options);
  const key = draftKey(record);
  const [text, setText] = useState(() => readDraft(key));
  const endRef = useRef<HTMLDivElement>(null);
  const composerId = useId();
  const hintId = useId();

  const post = useMutation({
    mutationFn: (contents: string) => addComment(record, contents),
    onSuccess: async () => {
      setText('');
      saveDraft(key, '');
      await queryClient.invalidateQueries({ queryKey: options.queryKey });
      endRef.current?.scrollIntoView({ block: 'nearest' });
    },
  });

  const comments = oldestFirst(query.data?.pages.flatMap((page) => page.items) ?? []);
  const trimmed = text.trim();
  const tooLong = text.length > COMMENT_MAX_LENGTH;
  const canSend = trimmed !== '' && !tooLong && !post.isPending;

  function send() {
    if (canSend) post.mutate(text);
  }

  // A newly opened thread starts at its latest comment, like a chat.
  const loaded = query.isSuccess;
  useEffect(() => {
    if (loaded) endRef.current?.scrollIntoView({ block: 'nearest' });
  }, [loaded]);

  return (
    <section aria-label="Comments" className="flex min-h-0 flex-1 flex-col">
      <div className="min-h-0 flex-1 overflow-y-auto px-6 py-4">
        {query.isPending ? (
          <div className="grid gap-3" role="status" aria-busy="true" aria-label="Loading comments">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-16 w-full" />
            ))}
          </div>
        ) : query.isError ? (
          <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
        ) : comments.length === 0 ? (
          <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
            <MessageSquare className="size-5" aria-hidden="true" />
            No comments yet. Start the conversation below.
          </div>
        ) : (
          <ol className="grid gap-4" aria-label="Comment thread" data-testid="comment-thread">
            {comments.map((comment) => {
              // Workflow comments have no person behind them; the source says where they came from.
              const author = comment.createdBy
                ? personName(comment.createdBy)
                : comment.source
                  ? `${comment.source.charAt(0)}${comment.source.slice(1).toLowerCase()}`
                  : 'Unknown author';
              return (
                <li key={comment.id}>
                  <article className="grid gap-1" aria-label={`Comment by ${author}`}>
                    <header className="flex items-baseline gap-2">
                      <span className="text-sm font-medium">{author}</span>
                      {comment.createdAt && (
                        <time
                          dateTime={comment.createdAt}
                          className="text-muted-foreground text-xs"
                          title={comment.createdAt}
                        >
                          {formatDateTime(comment.createdAt)}
                        </time>
                      )}
                    </header>
                    {/* A text node: React escapes it, so markup in a comment is shown, never run. */}
                    <p
                      className="bg-muted/50 rounded-md px-3 py-2 text-sm break-words whitespace-pre-wrap"
                      data-testid="comment-text"
                    >
                      {comment.contents}
                    </p>
                  </article>
                </li>
              );
            })}
          </ol>
        )}
        {query.hasNextPage && (
          <div className="mt-3 flex justify-center">
            <Button
              variant="outline"
              size="sm"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
              Show newer comments
            </Button>
          </div>
        )}
        <div ref={endRef} />
      </div>
      <form
        className="grid gap-2 border-t px-6 py-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Label htmlFor={composerId}>Add a comment</Label>
        <Textarea
          id={composerId}
          value={text}
          rows={3}
          aria-describedby={hintId}
          aria-invalid={tooLong || post.isError || undefined}
          placeholder="Write a comment…"
          onChange={(event) => {
            setText(event.target.value);
            saveDraft(key, event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              send();
            }
          }}
        />
        <div className="flex items-center gap-2">
          <p
            id={hintId}
            className={
              tooLong || post.isError ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'
            }
            role={post.isError ? 'alert' : undefined}
          >
            {post.isError
              ? `Not sent: ${describeError(post.error).description}`
              : tooLong
                ? `${text.length.toLocaleString()} of ${COMMENT_MAX_LENGTH.toLocaleString()} characters: too long.`
                : `${isMac ? '⌘' : 'Ctrl'}+Enter to send. Text is shown as written.`}
          </p>
          <Button type="submit" size="sm" className="ml-auto" disabled={!canSend}>
            {post.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Send aria-hidden="true" />
            )}
            Comment
          </Button>
        </div>
      </form>
    </section>
  );
}
