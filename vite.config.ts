import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds the renderer (React + zustand) into dist/renderer, which the local API serves at `/`.
 * esbuild's automatic JSX runtime replaces @vitejs/plugin-react (no fast refresh needed for a
 * production bundle). The AudioWorklet lives in renderer/public so it is a separate file served
 * from 'self', as the strict Content-Security-Policy requires.
 */
export default defineConfig({
  root: 'renderer',
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Two pages: the app, and the dictation bar the desktop app shows for dictate-anywhere.
    rollupOptions: { input: { main: fileURLToPath(new URL('./renderer/index.html', import.meta.url)), 'dictation-bar': fileURLToPath(new URL('./renderer/dictation-bar.html', import.meta.url)) } },
  },
  server: { port: 5173, strictPort: false },
});
