import type { UseQueryResult } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';

import type { ApiError, RecordReply } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';

import type { TriageRecordProps } from './triage-record.tsx';
import { TriageRecord } from './triage-record.tsx';

/**
 * The right-hand pane: the current record (the queue's copy while the record itself loads), its
 * error with a retry, or a loading line. The pane takes the focus back when the user leaves a
 * field, so that triage keys work again.
 */
export function TriagePane({
  id,
  record,
  paneRef,
  ...props
}: Omit<TriageRecordProps, 'id' | 'record' | 'loaded'> & {
  id: string | undefined;
  record: UseQueryResult<RecordReply, ApiError>;
  paneRef: React.Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={paneRef}
      tabIndex={-1}
      className="flex min-w-0 flex-1 flex-col overflow-y-auto outline-none"
      aria-label="Current record"
      role="region"
    >
      {id === undefined ? null : record.isError && !record.data ? (
        <ErrorPanel error={record.error} onRetry={() => void record.refetch()} className="flex-1" />
      ) : record.data ? (
        <TriageRecord
          key={id}
          id={id}
          record={record.data.record}
          loaded={record.data.etag !== undefined || !record.isPlaceholderData}
          {...props}
        />
      ) : (
        <div className="text-muted-foreground flex flex-1 items-center justify-center gap-2 text-sm">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading {id}…
        </div>
      )}
    </div>
  );
}
