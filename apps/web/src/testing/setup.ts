import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor give up after 1 s by default: on a busy machine (CI beside other jobs) a
// debounce, a mocked fetch and a render can take longer than that. A real failure still fails,
// only later.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
