// The page's service worker: after one visit, the page opens with no network.
// build.py fills in VERSION (a hash of the site's files) and FILES (every one of them):
// a new build is a new worker, which caches the new files before it takes over and
// then deletes the caches of older builds of this same folder (scope).
const VERSION = "__VERSION__";
const FILES = ["__FILES__"];
const PREFIX = `microrobots ${self.registration.scope} `;
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Every file from the cache (a URL's ?seed=... does not matter: the same page); what
// the cache does not hold, from the network.
self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith(caches.open(CACHE)
    .then((cache) => cache.match(event.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(event.request)));
});
