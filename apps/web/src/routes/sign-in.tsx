import { createFileRoute, redirect, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { z } from 'zod';

import type { LoginResult } from '@/features/auth/api/session.ts';
import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { SignInForm } from '@/features/auth/components/sign-in-form.tsx';
import { whenIdle } from '@/lib/when-idle.ts';

import { handOverFirstPage } from './-components/first-page-handoff.ts';
import { preloadRouteCode } from './-components/preload-route-code.ts';
import { safeRedirect } from './-components/safe-redirect.ts';
import { startShell } from './-components/start-shell.ts';

const SignInSearchSchema = z.object({
  redirect: z.string().max(4096).optional().catch(undefined),
  expired: z.boolean().optional().catch(undefined),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: SignInSearchSchema,
  beforeLoad: async ({ context, search }) => {
    const session = await context.queryClient
      .ensureQueryData(sessionQueryOptions())
      .catch(() => null);
    if (session) throw redirect({ href: safeRedirect(search.redirect) });
  },
  head: () => ({ meta: [{ title: 'Sign in · Workspace Console' }] }),
  component: SignInPage,
});

function SignInPage() {
  const { redirect: target, expired } = Route.useSearch();
  const { queryClient } = Route.useRouteContext();
  const router = useRouter();
  // The page signing in leads to has its code loaded while the form is filled in.
  useEffect(
    () => whenIdle(() => void preloadRouteCode(router, safeRedirect(target))),
    [router, target],
  );

  function handleSignedIn(result: LoginResult) {
    startShell(queryClient, result);
    // The first rows of the list it leads to came along (the BFF read them): no request of its own.
    if (result.firstPage) handOverFirstPage(queryClient, result.firstPage);
    router.history.push(safeRedirect(target));
  }

  return (
    <main className="bg-muted/40 flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <img src="/favicon.svg" alt="" className="size-10" />
          <div>
            <h1 className="text-xl font-semibold tracking-tight">Sign in to Workspace Console</h1>
            <p className="text-muted-foreground mt-1 text-sm">Use your API client ID and secret.</p>
          </div>
        </div>
        <div className="bg-card rounded-xl border p-6 shadow-sm">
          {(expired || target) && (
            <p className="bg-muted mb-4 rounded-md px-3 py-2 text-sm" role="status">
              {expired ? 'Your session expired. ' : ''}Sign in to continue where you were.
            </p>
          )}
          <SignInForm next={safeRedirect(target)} onSignedIn={handleSignedIn} />
        </div>
        <p className="text-muted-foreground mt-4 text-center text-xs">
          Your secret is checked by the server and never stored in this browser.
        </p>
      </div>
    </main>
  );
}
