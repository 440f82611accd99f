// Writes the configuration's documentation from main/config-table.ts: README's configuration
// table (between its markers), docs/configuration.md and the configuration blocks of docs pages. `--check` writes nothing and exits 1 when
// either is out of date (the test suite checks the same: test/api/configuration-truth.test.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationPage, withDocBlocks, withReadmeTable } from '../main/config-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const targets = [
  { path: join(root, 'README.md'), make: (current: string) => withReadmeTable(current) },
  { path: join(root, 'docs', 'configuration.md'), make: () => configurationPage() },
  ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'configuration.md')
    .map((f) => ({ path: join(root, 'docs', f), make: (current: string) => withDocBlocks(current) })),
];
let stale = 0;
for (const { path, make } of targets) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // a page not written yet
  }
  const wanted = make(current);
  if (wanted === current) continue;
  stale++;
  if (check) process.stderr.write(`${path} is out of date: run npm run docs:config\n`);
  else {
    writeFileSync(path, wanted);
    process.stdout.write(`wrote ${path}\n`);
  }
}
if (check && stale) process.exit(1);
