import type { RecordInput, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/**
 * `POST` a new record -> the record as stored (with its handle in our API; the hosted reply may
 * have none, or no body at all).
 *
 * @example
 * const record = await createRecord({ recordType, alias, fields: { Title: 'Printer on fire' } });
 */
export function createRecord(input: {
  recordType: RecordType;
  alias: string;
  fields: RecordInput;
}) {
  return api.createRecord(input.recordType, input.alias, input.fields, { source: 'create' });
}
