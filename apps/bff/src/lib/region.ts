// A region: one upstream (the API's base URL, its token URL and profile) the BFF signs users in to.
import type { Definition, Profile } from '@wsc/api-client';

export type RegionId = 'default' | 'eu';

/** A region's profile as configured: `auto` is detected at the first sign-in (lib/profiles.ts). */
export type ProfileSetting = Profile | 'auto';

/** How the token request is sent: `auto` tries form + Basic, then JSON, and remembers. */
export type TokenStyleSetting = 'auto' | 'form' | 'json';

export type Region = {
  id: RegionId;
  label: string;
  /** Base of the resources, ending in `/v1`. */
  apiUrl: string;
  /** The base URL without `/v1`, plus `/oauth/token`. */
  tokenUrl: string;
  profile: ProfileSetting;
  tokenStyle: TokenStyleSetting;
  /** Definitions from the region's BFF_WORKSPACE_FILE (hosted profile); read-only. */
  workspace: Definition[];
};
