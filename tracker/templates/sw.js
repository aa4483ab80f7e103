// tracker service worker: static assets cache-first; pages network-first with the last copy
// (or the offline page) when there is no network. Entries always need the server.
const CACHE = "tracker-{{ version }}";
const ASSETS = [
  "{{ url_for('static', filename='app.css') }}",
  "{{ url_for('static', filename='app.js') }}",
  "{{ url_for('static', filename='htmx.min.js') }}",
  "{{ url_for('static', filename='icons/icon-192.png') }}",
  "{{ url_for('static', filename='icons/icon-512.png') }}",
  "{{ url_for('pages.manifest') }}",
  "{{ url_for('pages.offline') }}",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
      .then(keepOpenPages)
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("{{ url_for('static', filename='') }}")) {
    event.respondWith(
      caches.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((resp) => {
        const copy = resp.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
        return resp;
      }))
    );
    return;
  }
  if (request.mode === "navigate") {
    // one copy per page, whatever its query (a sheet's state, history filters): the latest
    const key = url.origin + url.pathname;
    const network = fetch(request).then((resp) => {
      if (ours(resp)) {
        const copy = resp.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy));
      }
      return resp;
    });
    const answer = network.catch(() => caches.match(key)
      .then((hit) => (hit ? stale(hit) : caches.match("{{ url_for('pages.offline') }}"))));
    // A network that stalls (connected, nothing getting through) never fails: after STALLED ms the
    // kept copy is shown, if there is one (the request goes on and keeps its answer for next time).
    const stalled = new Promise((resolve) => setTimeout(resolve, STALLED))
      .then(() => caches.match(key)).then((hit) => (hit ? stale(hit) : answer));
    event.respondWith(Promise.race([answer, stalled]));
  }
});

const STALLED = 5000;

// A phone whose first visit is a game's page (the second phone, by link or QR) loaded it before
// this worker existed: once active, each open page of this app not kept yet is fetched once and
// kept, so its screen has an offline copy (which app.js then keeps up to date after each redraw).
function keepOpenPages() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => Promise.all(windows.map((win) => {
    const url = new URL(win.url);
    if (url.origin !== self.location.origin) return undefined;
    const key = url.origin + url.pathname;
    return caches.open(CACHE).then((cache) => cache.match(key).then((kept) => (kept ? undefined
      : fetch(key, { credentials: "same-origin" }).then((resp) => (ours(resp) ? cache.put(key, resp) : undefined))
        .catch(() => undefined))));
  })));
}

// Only a page of this app is kept: never a redirect, an error, or a page something on the way
// answered instead (a proxy's 502, a Wi-Fi login page), which would replace the game's copy.
function ours(resp) {
  return resp.ok && resp.type === "basic" && !resp.redirected
    && (resp.headers.get("Content-Type") || "").startsWith("text/html")
    && (resp.headers.get("Content-Security-Policy") || "").includes("frame-ancestors 'none'");
}

// A kept page with another body: its headers (its content security policy included), less those
// that described the old body.
function withBody(resp, html) {
  const headers = new Headers(resp.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(html, { status: 200, headers });
}

// A page's stored copy, shown without a network, says so (body data-stale: app.js tells the
// player the game may have moved on since the screen this phone last showed).
function stale(resp) {
  return resp.text().then((html) => withBody(resp, html.replace("<body ", '<body data-stale="1" ')));
}

// The game screen as a phone last showed it (app.js, after each redraw): kept in place of the
// copy of its last full load. Only a page already kept, of this origin's path, is replaced;
// nothing new is added.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "language") {
    // the language was changed (Settings): the offline page kept at install spoke the one before
    const offline = "{{ url_for('pages.offline') }}";
    event.waitUntil(fetch(offline, { credentials: "same-origin" })
      .then((resp) => (ours(resp) ? caches.open(CACHE).then((cache) => cache.put(offline, resp)) : undefined))
      .catch(() => undefined));
    return;
  }
  if (data.type !== "keep-page" || typeof data.url !== "string" || typeof data.html !== "string" || !data.url.startsWith("/")) return;
  const url = new URL(data.url, self.location.origin).href;
  event.waitUntil(caches.open(CACHE).then((cache) => cache.match(url).then((kept) => (
    kept ? cache.put(url, withBody(kept, data.html)) : undefined
  ))));
});
