#!/usr/bin/env node
// The `clindoc` command (and `npm run serve`, which is `clindoc serve`). It runs the compiled CLI,
// dist/main/cli.js (built by scripts/install.sh or `npm run build:server`), on the Node.js that
// Clindoc pins (package.json's optionalDependencies, installed under node_modules), whatever
// `node` started this file: compiled, a start costs about 1.5 s of CPU to the first answer, where
// compiling the TypeScript at every start cost 4.5 to 5.5 s.
//
// In a checkout whose sources changed since that build (a developer, the tests) it runs the
// sources through tsx instead, so nobody runs a stale build by mistake; a production install has
// no tsx (`npm prune --omit=dev`, docs/deploy.md) and always runs the build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const built = join(root, 'dist', 'main', 'cli.js');

/**
 * Modification time of the newest TypeScript source under `dir` (0 when there is none). Walked by
 * hand: this file may start on an older Node (Debian's) than the one it hands over to.
 */
function newestSource(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function tsxLoader() {
  try {
    return require.resolve('tsx');
  } catch {
    return undefined;
  }
}

function entryArguments() {
  const current = existsSync(built) && Math.max(newestSource(join(root, 'main')), newestSource(join(root, 'shared'))) <= statSync(built).mtimeMs;
  if (current) return [built];
  const tsx = tsxLoader();
  if (tsx) return ['--import', tsx, join(root, 'main', 'cli.ts')];
  if (existsSync(built)) {
    process.stderr.write('clindoc: the sources changed since the last build and tsx is not installed: running the last build (npm run build:server to refresh it)\n');
    return [built];
  }
  process.stderr.write('clindoc: no build at dist/main/cli.js: run `npm run build:server` (scripts/install.sh does)\n');
  process.exit(1);
}

// The pinned runtime when it is installed for this machine, else the Node that runs this file.
const pinned = join(root, 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
const runtime = process.platform === 'linux' && existsSync(pinned) ? pinned : process.execPath;
// One child, waited for, so exit codes pass straight through; signals reach it through the process
// group (a terminal's Ctrl-C, systemd's KillMode=control-group).
const result = spawnSync(runtime, [...entryArguments(), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
