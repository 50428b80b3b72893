// The POS's service worker (built into dist/sw.js by vite.config.mjs, which fills in VERSION and
// ASSETS: the build's own files). It keeps one version of the app on the tablet, so /pos opens with no
// network. A new build is a new sw.js: the browser fetches it in the background at each visit, it
// caches the new files and then waits; the page tells it when it may take over (offline/updates.ts:
// on the floor, nothing in the outbox), so a waiter is never switched mid-order.
/* global self, caches, fetch */
const VERSION = '__VERSION__';
const ASSETS = __ASSETS__;
const CACHE = `comanda-pos-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['/pos', ...ASSETS])));
});

self.addEventListener('message', (event) => {
  if (event.data === 'take-new-version') void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('comanda-pos-') && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The app's own files from this version's cache; everything else (the API) goes to the network as
// if there were no service worker: the page keeps its own reads and writes (IndexedDB, the outbox).
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname !== '/pos' && !url.pathname.startsWith('/pos/assets/')) return;
  event.respondWith((async () => (await (await caches.open(CACHE)).match(url.pathname)) ?? fetch(event.request))());
});
