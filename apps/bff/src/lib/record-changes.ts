// Changes made through the console, as the BFF's proxy sees them: one in-process bus that the
// proxy publishes to (after the upstream accepted a write) and that the record history and the
// live events subscribe to. Listeners never slow or fail the write that published.
import type { RecordChangeKind } from '@wsc/api-client/bff-events';

import type { Actor } from './people.ts';
import type { RegionId } from './region.ts';

/** What kind of change a write made to a record (the contract's enum, shared with the console). */
export type { RecordChangeKind };

/** One field's value before and after an update (JSON values as the API returned them). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** One accepted write to one record, made by a signed-in console user. */
export interface RecordChange {
  region: RegionId;
  /** The record type segment of the path (e.g. `app`), and the definition's alias. */
  recordType: string;
  alias: string;
  recordId: string;
  kind: RecordChangeKind;
  /** Who made it: the session's owner id, the name others see and its identity kind (people.ts). */
  actor: Actor;
  /** Where in the console it was made: `editor`, `triage`, `bulk-run:<id>`, `undo:<id>`, ... */
  source: string;
  /** When the upstream accepted it (epoch ms). */
  at: number;
  /** For `updated`: the fields that changed. For the other kinds: what was added or removed. */
  fields: FieldChange[];
}

export type RecordChangeListener = (change: RecordChange) => void;

export interface RecordChangeBus {
  publish(change: RecordChange): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: RecordChangeListener): () => void;
}

/**
 * The bus. A listener that throws is reported through `onListenerError` and the others still run.
 *
 * @example
 * const bus = createRecordChangeBus();
 * const stop = bus.subscribe((change) => console.log(change.recordId));
 */
export function createRecordChangeBus(
  onListenerError: (error: unknown) => void = () => {},
): RecordChangeBus {
  const listeners = new Set<RecordChangeListener>();
  return {
    publish(change) {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
