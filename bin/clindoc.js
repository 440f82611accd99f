#!/usr/bin/env node
// The `clindoc` command: runs the TypeScript CLI through tsx so a checkout needs no build step.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// One process (node --import tsx) so signals and exit codes pass straight through.
const tsx = require.resolve('tsx');
const result = spawnSync(process.execPath, ['--import', tsx, join(root, 'main', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
