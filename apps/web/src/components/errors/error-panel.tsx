import { AlertTriangle, Ban, Clock, RefreshCw, SearchX, ServerCrash } from 'lucide-react';

import { isApiError } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';

import { describeError } from './error-message.ts';

function iconFor(error: unknown) {
  if (!isApiError(error)) return AlertTriangle;
  if (error.status === 403) return Ban;
  if (error.status === 404) return SearchX;
  if (error.status === 429) return Clock;
  if (error.status === 0 || error.status >= 500) return ServerCrash;
  return AlertTriangle;
}

/**
 * A failure shown where it happened: what went wrong in plain words, and a retry when it helps.
 *
 * @example
 * <ErrorPanel error={query.error} onRetry={() => query.refetch()} />
 */
export function ErrorPanel({
  error,
  onRetry,
  className,
  compact = false,
}: {
  error: unknown;
  onRetry?: () => void;
  className?: string;
  compact?: boolean;
}) {
  const message = describeError(error);
  const Icon = iconFor(error);
  return (
    <div
      role="alert"
      data-slot="error-panel"
      className={cn(
        'flex flex-col items-center justify-center gap-3 text-center',
        compact ? 'p-4' : 'min-h-64 p-8',
        className,
      )}
    >
      <span className="bg-muted text-muted-foreground flex size-10 items-center justify-center rounded-full">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="grid max-w-md gap-1">
        <h2 className="text-base font-semibold">{message.title}</h2>
        <p className="text-muted-foreground text-sm">{message.description}</p>
      </div>
      {message.retryable && onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      )}
    </div>
  );
}
