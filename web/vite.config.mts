/**
 * The reference web app's build (`npm run build:web`, also run by `npm ci` and, when web/ changed, by the
 * twin at start): Preact through Vite's own JSX transform, hashed assets under dist/assets.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
