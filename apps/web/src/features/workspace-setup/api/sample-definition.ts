import type { SampleInput } from '@wsc/api-client';

import { bff } from '@/lib/bff.ts';

/**
 * `POST /bff/workspace/sample`: the BFF reads some records of the alias and proposes a definition
 * (fields, types, picklist values, title and handle fields) with notes on its guesses. Nothing is
 * stored. Throws `ApiError` 403 (the credential may not read the alias), 404 (unknown alias), or
 * 400/422 with the service's message.
 *
 * @example
 * const { definition, notes } = await sampleDefinition({ recordType: 'apps', alias: 'support' });
 */
export function sampleDefinition(input: SampleInput, signal?: AbortSignal) {
  return bff.workspace.sample(input, { signal });
}
