import { defineConfig } from 'vite';

// The screens are served by the API under /pos (services/api/src/routes/pos-page.ts): every asset
// path is relative to it, and nothing is loaded from anywhere else at run time.
export default defineConfig({
  base: '/pos/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 400 },
});
