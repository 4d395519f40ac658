// A spec that needs a stack configured unlike the shared one (a rate limit on, a debug log):
// started before its tests, stopped after them, and in the hosted run checked for requests or
// replies outside the published contract.
import type { Stack, StackOptions } from './stack.ts';
import { expect, test } from './fixtures.ts';
import { startStack } from './stack.ts';

/**
 * Starts a stack of the spec's own for its tests (run one after another) and returns how to
 * reach it.
 *
 * @example
 * const running = useOwnStack({ name: 'rate-limited', profile: runProfile(), rateLimitRps: 1 });
 * test('...', async () => { const { baseURL } = running(); });
 */
export function useOwnStack(options: StackOptions, startTimeoutMs = 150_000): () => Stack {
  let stack: Stack | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(startTimeoutMs);
    stack = await startStack(options);
  });
  test.afterAll(async () => {
    await stack?.stop();
    // Everything the BFF sent through this stack's Prism stayed inside the published contract.
    expect(stack?.violations() ?? []).toEqual([]);
  });
  return () => {
    if (!stack) throw new Error(`the ${options.name ?? 'spec'} stack did not start`);
    return stack;
  };
}
