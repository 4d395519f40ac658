import { lazy, Suspense, useEffect, useState } from 'react';

import { UPLOADS_STARTED_EVENT, uploadsStarted } from '../lib/upload-signal.ts';

// The tray and the upload store load only once something is uploaded: the shell's first load
// carries just this host (a few hundred bytes).
const UploadTray = lazy(() =>
  import('./upload-tray.tsx').then((module) => ({ default: module.UploadTray })),
);

/**
 * Mount once in the signed-in layout: it shows the upload tray from the first upload on, on every
 * page, so uploads stay visible while the user moves around the console.
 *
 * @example
 * <UploadTrayHost />
 */
export function UploadTrayHost() {
  const [started, setStarted] = useState(uploadsStarted);
  useEffect(() => {
    if (started) return;
    const show = () => setStarted(true);
    window.addEventListener(UPLOADS_STARTED_EVENT, show);
    return () => window.removeEventListener(UPLOADS_STARTED_EVENT, show);
  }, [started]);
  if (!started) return null;
  return (
    <Suspense fallback={null}>
      <UploadTray />
    </Suspense>
  );
}
