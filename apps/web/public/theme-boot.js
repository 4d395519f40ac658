// Applies the persisted or system colour scheme before the first paint (see src/lib/theme.ts).
(function () {
  try {
    var stored = localStorage.getItem('wsc-theme');
    var dark =
      stored === 'dark' ||
      ((stored === null || stored === 'system') &&
        window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch (_e) {
    /* storage blocked: keep the light default */
  }
})();
