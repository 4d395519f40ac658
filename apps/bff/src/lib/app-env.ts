// The Hono env of every BFF route: node:http bindings and the per-request variables.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { SessionRecord } from '../db/store.ts';

export type AppEnv = {
  /** Set by @hono/node-server; absent under `app.request()` in tests. */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse };
  Variables: {
    requestId: string;
    session: SessionRecord | undefined;
    /** The cookie value when one was sent (never logged). */
    sessionId: string | undefined;
    upstreamStatus: number | undefined;
    upstreamAttempts: number | undefined;
    /** Status of a response written straight to the socket (the proxy's fast path). */
    sentStatus: number | undefined;
    /** Set by the proxy for an admitted upload: excepted from the request deadline. */
    longBody: boolean | undefined;
    /** Set by `GET /bff/events`: a long-lived response, excepted from the request deadline. */
    streaming: boolean | undefined;
    /** BFF_PUBLIC_ORIGIN, set by the app for the CSRF check; `null`: derived from Host. */
    publicOrigins: string[] | null | undefined;
  };
};
