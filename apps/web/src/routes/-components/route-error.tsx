import type { ErrorComponentProps } from '@tanstack/react-router';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';

/**
 * Route error boundary: shows the failure plainly; "Try again" resets the query error boundary
 * and re-runs the route's loaders.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  return <ErrorPanel error={error} onRetry={() => void router.invalidate()} className="flex-1" />;
}
