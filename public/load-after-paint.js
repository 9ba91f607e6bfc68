// Loads the app's scripts on a public page the server rendered (src/server/public/page-data.ts)
// once its first view has painted: until then the HTML, the stylesheet and the first previews have
// the connection to themselves, and the page needs no script to be read. External, because the
// Content-Security-Policy forbids inline scripts.
(function () {
  var me = document.currentScript;
  if (!me) return;
  var entry = me.getAttribute('data-entry');
  var modules = (me.getAttribute('data-modules') || '').split(' ');
  var started = false;
  function load() {
    if (started || !entry) return;
    started = true;
    for (var i = 0; i < modules.length; i++) {
      if (!modules[i]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = modules[i];
      document.head.appendChild(link);
    }
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  }
  // After the first frame; and in any case after a second (a tab opened in the background paints no frame until shown).
  requestAnimationFrame(function () {
    setTimeout(load, 0);
  });
  setTimeout(load, 1000);
})();
