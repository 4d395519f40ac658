import { createContext, useContext } from 'react';

import type { Capabilities } from '@wsc/api-client';
import { capabilitiesFor } from '@wsc/api-client';

/**
 * What the session region's upstream can do (`GET /bff/session`'s `capabilities`). The signed-in
 * layout provides it; outside one (tests of single components), our own API's extended profile.
 */
export const CapabilitiesContext = createContext<Capabilities>(capabilitiesFor('extended'));

/**
 * The session region's capabilities, for features that degrade against the hosted service.
 *
 * @example
 * const { sort } = useCapabilities(); // false: sort the loaded rows, and say so
 */
export function useCapabilities(): Capabilities {
  return useContext(CapabilitiesContext);
}
