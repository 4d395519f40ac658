// The list row's presence marker names an unverified person as unverified (issue 26).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { PresenceMarker } from './presence-marker.tsx';

const entry = (name: string, identity: PresenceEntry['identity']): PresenceEntry => ({
  connectionId: `c-${name}`,
  user: { id: name, name },
  identity,
  recordType: 'apps',
  alias: 'tickets',
  recordId: 'SUP-1',
  editing: true,
  since: '2025-03-01T09:00:00.000Z',
});

describe('PresenceMarker', () => {
  it('says the name is unverified, with initials of the name itself', () => {
    render(<PresenceMarker entries={[entry('Alex Morgan', 'self')]} />);
    const marker = screen.getByTestId('presence-marker');
    expect(marker).toHaveAccessibleName('Alex Morgan (unverified) has this open (editing)');
    expect(marker).toHaveTextContent('AM');
  });

  it('names a verified person as they are', () => {
    render(<PresenceMarker entries={[entry('Ana Lima', 'api')]} />);
    expect(screen.getByTestId('presence-marker')).toHaveAccessibleName(
      'Ana Lima has this open (editing)',
    );
  });
});
