import { vi } from 'vitest';

/** A request the stubbed fetch holds until the test answers it. */
export interface HeldRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  /** Answers the request (a held one; answering twice does nothing). */
  respond: (response: Response) => void;
}

/**
 * Stubs fetch so that requests wait for the test: `answer` may reply at once (return a Response);
 * the rest are held in `requests` until the test calls their `respond`. Concurrency without timing.
 *
 * @example
 * const wire = heldFetch((req) => (req.method === 'GET' ? jsonResponse(stored) : undefined));
 * await vi.waitFor(() => expect(wire.requests).toHaveLength(2));
 * wire.requests[0]?.respond(jsonResponse(problem, 422));
 */
export function heldFetch(answer?: (request: HeldRequest) => Response | undefined) {
  const requests: HeldRequest[] = [];
  const all: HeldRequest[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    (input, init) =>
      new Promise<Response>((resolve) => {
        const url = new URL(String(input), 'http://localhost');
        const body =
          typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
        const request: HeldRequest = {
          method: init?.method ?? 'GET',
          path: decodeURIComponent(url.pathname),
          headers: new Headers(init?.headers),
          body,
          respond: resolve,
        };
        all.push(request);
        const now = answer?.(request);
        if (now) resolve(now);
        else requests.push(request);
      }),
  );
  return { requests, all };
}
