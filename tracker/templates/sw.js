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
    event.respondWith(
      fetch(request).then((resp) => {
        const copy = resp.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
        return resp;
      }).catch(() => caches.match(request)
        // a game page whose address holds a sheet's state (?sheet=buy&card=…): its last plain copy
        .then((hit) => hit || caches.match(request, { ignoreSearch: true }))
        .then((hit) => (hit ? stale(hit) : caches.match("{{ url_for('pages.offline') }}"))))
    );
  }
});

// A page's stored copy, shown without a network, says so (body data-stale: app.js tells the
// player the game may have moved on since; the copy is of the last full load, not of every redraw).
function stale(resp) {
  return resp.text().then((html) => {
    const headers = new Headers(resp.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(html.replace("<body ", '<body data-stale="1" '), { status: resp.status, statusText: resp.statusText, headers });
  });
}
