import { defineConfig } from 'vite';

// Two pages of one app, built together: the POS screens (index.html, served at /pos) and the kitchen
// display (kitchen.html, served at /kitchen), sharing components, the typed client and its chunks.
// Served by the API (services/api/src/routes/pos-page.ts, kitchen-page.ts), each page's assets under
// its own path (/pos/assets/, /kitchen/assets/: the same folder); nothing is loaded from anywhere else.
export default defineConfig({
  base: '/pos/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 400,
    rolldownOptions: { input: { pos: 'index.html', kitchen: 'kitchen.html' } },
  },
  experimental: {
    // The kitchen page's scripts and styles from /kitchen/assets/; the chunks they import are found
    // next to them (relative imports), so the kitchen needs nothing served under /pos.
    renderBuiltUrl: (file, { hostId }) => (hostId.endsWith('kitchen.html') ? `/kitchen/${file}` : undefined),
  },
});
