// Bundles the preload script to CommonJS: sandboxed preloads cannot be ES modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['preload/index.ts'],
  outfile: 'dist/preload/index.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  external: ['electron'],
  target: 'node20',
});
