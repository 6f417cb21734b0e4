import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard is served by the API under /dashboard/ (src/http/dashboard.ts): hashed asset
 * names under /dashboard/assets/ are cached for a year, index.html is revalidated on every load.
 * No inline script or style ends up in the output (the page's CSP allows own files only).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
