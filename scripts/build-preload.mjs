// Bundles the preload scripts (main window, dictation bar) to CommonJS: sandboxed preloads cannot be ES modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['preload/index.ts', 'preload/dictation-bar.ts'],
  outdir: 'dist/preload',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  external: ['electron'],
  target: 'node20',
});
