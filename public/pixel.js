/*
 * The tracker snippet: copy it to your site (or your CDN) and load it on every page:
 *
 *   <script defer src="/pixel.js" data-api="https://api.example.com/api/v1"
 *           data-outbound-links data-file-downloads></script>
 *
 * It asks GET {data-api}/pixel/config for its site's settings and does nothing while the
 * site is not tracked. Otherwise it sends a pageview on load and on every client-side
 * navigation (history.pushState, replaceState, back and forward, and hash routes with
 * data-hash), never twice for the same page in a row: going back fires both popstate and
 * hashchange, and a replaceState of the same path is no new page. With data-outbound-links
 * a click on a link to another host sends `outbound`, with data-file-downloads a click on a
 * file link sends `download`; a 404 page calls `window.pixel('404')`. Events go with
 * navigator.sendBeacon as text/plain (no preflight, and they survive the page unloading).
 */
(() => {
  const script = document.currentScript;
  if (!script) return;
  const api = (script.getAttribute('data-api') || '').replace(/\/$/, '');
  const hashRoutes = script.hasAttribute('data-hash');
  const fileTypes = /\.(pdf|zip|gz|tgz|dmg|exe|msi|pkg|deb|rpm|csv|xlsx?|docx?|pptx?|mp3|mp4|mov|epub|iso)$/i;
  let config = null;
  let lastPage = null;
  const queued = [];

  const send = (event, properties) => {
    if (!config) {
      queued.push([event, properties]);
      return;
    }
    if (!config.enabled || !(event === 'pageview' ? config.features.pageviews : config.features.events)) return;
    const body = JSON.stringify({
      event,
      url: location.href,
      referrer: document.referrer || '',
      user_agent: navigator.userAgent,
      ...(properties ? { properties } : {}),
    });
    if (navigator.sendBeacon?.(`${api}/pixel/track`, body)) return;
    fetch(`${api}/pixel/track`, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
  };

  /** The page as the tracker tells pages apart: the path, and the hash for hash routes. */
  const pageOf = () => location.pathname + (hashRoutes ? location.hash : '');

  const pageview = () => {
    const page = pageOf();
    if (page === lastPage) return;
    lastPage = page;
    send('pageview');
  };

  for (const method of ['pushState', 'replaceState']) {
    const original = history[method];
    history[method] = function (...args) {
      const result = original.apply(this, args);
      pageview();
      return result;
    };
  }
  window.addEventListener('popstate', pageview);
  if (hashRoutes) window.addEventListener('hashchange', pageview);

  // A property holds up to 256 characters: a longer link is counted by its first ones rather than lost.
  const linkText = (target) => target.href.slice(0, 256);

  document.addEventListener('click', (click) => {
    const link = click.target?.closest?.('a[href]');
    if (!link) return;
    let target;
    try {
      target = new URL(link.href, location.href);
    } catch {
      return;
    }
    if (script.hasAttribute('data-outbound-links') && target.host !== location.host && /^https?:$/.test(target.protocol)) {
      send('outbound', { url: linkText(target) });
    } else if (script.hasAttribute('data-file-downloads') && fileTypes.test(target.pathname)) {
      send('download', { url: linkText(target) });
    }
  });

  window.pixel = (event, properties) => send(event, properties);

  fetch(`${api}/pixel/config`)
    .then((answer) => answer.json())
    .then((answer) => {
      config = answer.data;
      if (config.enabled) pageview();
      for (const [event, properties] of queued.splice(0)) send(event, properties);
    })
    .catch(() => {});
})();
