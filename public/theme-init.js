// Runs before first paint (loaded from <head>, not inline, because the CSP forbids inline scripts).
// Keep in step with src/app/lib/theme.ts: the stored choice wins, otherwise the system preference.
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem('parcel-theme');
  } catch {
    // Storage can be blocked; fall back to the system preference.
  }
  var dark = stored === 'dark' || (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
})();
