import { online } from '../network.js';
import { waiting } from './outbox.js';

/** How often a tablet left open asks whether a new version is out (it also asks at every load). */
const CHECK_MS = 5 * 60_000;

/**
 * The service worker (dist/sw.js) keeps the app on the tablet. A new version is fetched in the
 * background and waits; it is taken at a safe moment only — the floor on screen (no order
 * half-entered), the outbox empty, the network there — and the page reloads into it. Until then
 * the older page keeps working against the new API, which stays compatible with it.
 */
export function keepUpToDate(): void {
  if (!('serviceWorker' in navigator)) return;
  // A first install takes control too (clients.claim): that is no new version, nothing to reload.
  const hadOne = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (hadOne) location.reload();
  });
  void navigator.serviceWorker.register('/pos/sw.js', { scope: '/pos' }).then((registration) => {
    const safe = () => /^#?\/?(floor)?$/.test(location.hash) && waiting.get().length === 0 && online.get();
    const takeWhenSafe = () => {
      if (registration.waiting && navigator.serviceWorker.controller && safe()) registration.waiting.postMessage('take-new-version');
    };
    registration.addEventListener('updatefound', () => registration.installing?.addEventListener('statechange', takeWhenSafe));
    waiting.subscribe(takeWhenSafe);
    online.subscribe(takeWhenSafe);
    addEventListener('hashchange', takeWhenSafe);
    setInterval(() => void registration.update().catch(() => undefined), CHECK_MS);
    takeWhenSafe();
  }, () => undefined);
}
