import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

/**
 * dist/sw.js: the service worker (sw.js) with this build's files to keep (the POS's page needs them
 * all to open offline) and a version made from their names (hashed: a new build, a new version). A
 * hand-written worker of 40 lines instead of vite-plugin-pwa/workbox: it only has to keep one app's
 * files, and when a new version takes over is the POS's decision (offline/updates.ts), not a library's.
 */
const serviceWorker = {
  name: 'comanda-pos-service-worker',
  // After Vite's own: a chunk that only imported CSS (guest.css, shared by the guest and table pages)
  // is dropped there, and a worker listing it never installs (its cache.addAll meets a 404).
  enforce: 'post',
  generateBundle(_options, bundle) {
    const assets = Object.entries(bundle).filter(([f, b]) => f.startsWith('assets/') && !f.endsWith('.map') && !(b.type === 'chunk' && b.code.trim() === ''))
      .map(([f]) => `/pos/${f}`).sort();
    const version = createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 16);
    const source = readFileSync(new URL('./sw.js', import.meta.url), 'utf8').replace("'__VERSION__'", JSON.stringify(version)).replace('__ASSETS__', JSON.stringify(assets));
    this.emitFile({ type: 'asset', fileName: 'sw.js', source });
  },
};

// Two pages of one app, built together: the POS screens (index.html, served at /pos) and the kitchen
// display (kitchen.html, served at /kitchen), sharing components, the typed client and its chunks.
// Served by the API (services/api/src/routes/pos-page.ts, kitchen-page.ts), each page's assets under
// its own path (/pos/assets/, /kitchen/assets/: the same folder); nothing is loaded from anywhere else.
export default defineConfig({
  base: '/pos/',
  plugins: [serviceWorker],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 400,
    rolldownOptions: { input: { pos: 'index.html', kitchen: 'kitchen.html', guest: 'guest.html', table: 'table.html' } },
  },
  experimental: {
    // The kitchen page's scripts and styles from /kitchen/assets/; the chunks they import are found
    // next to them (relative imports), so the kitchen needs nothing served under /pos.
    renderBuiltUrl: (file, { hostId }) => (hostId.endsWith('kitchen.html') ? `/kitchen/${file}` : hostId.endsWith('guest.html') ? `/g/${file}` : hostId.endsWith('table.html') ? `/t/${file}` : undefined),
  },
});
