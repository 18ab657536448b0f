/*
 * InBet (demo) loader: what the provider's loader script does for a game page at
 * /slots/inbet/:gameId, served by the local fake at /inbet/media/loader.js.
 *
 *   InbetLoader.mount(container, { url, title, onReady, onError }) -> { destroy() }
 *
 * It opens the game session's launch address (`url`, from POST /api/casino/session) in a
 * frame inside `container`, calls onReady once the game has loaded, onError when it cannot,
 * and destroy() removes it. In production /inbet/media/ is mapped by the reverse proxy to the
 * provider's CDN (docs/OPERATIONS.md); this file stands in for it in demo mode only.
 */
(function () {
  'use strict';
  function mount(container, options) {
    var opts = options || {};
    if (!container || typeof opts.url !== 'string' || !/^(https?:)?\//.test(opts.url)) {
      if (typeof opts.onError === 'function') opts.onError(new Error('InbetLoader: a container and a launch url are required'));
      return { destroy: function () {} };
    }
    var frame = document.createElement('iframe');
    frame.src = opts.url;
    frame.title = opts.title || 'InBet';
    frame.setAttribute('allow', 'autoplay; fullscreen');
    frame.setAttribute('allowfullscreen', '');
    frame.setAttribute('data-inbet-frame', '1');
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.height = '100%';
    frame.style.display = 'block';
    var done = false;
    frame.addEventListener('load', function () {
      if (!done && typeof opts.onReady === 'function') opts.onReady();
      done = true;
    });
    frame.addEventListener('error', function () {
      if (typeof opts.onError === 'function') opts.onError(new Error('InbetLoader: the game did not load'));
    });
    container.appendChild(frame);
    return {
      destroy: function () {
        if (frame.parentNode) frame.parentNode.removeChild(frame);
      },
    };
  }
  window.InbetLoader = { version: 1, mount: mount };
})();
