// The dependency check CI runs (scripts/test.sh): `npm audit` where the registry answers it, and
// always the lockfile review. Every package in package-lock.json (path, version, a prefix of its
// integrity hash, dev/optional, whether it runs install scripts, licence) is compared with the
// list a person last reviewed, .ci/reviewed-packages.txt; a package added, changed or removed
// since fails the check, listed, until someone has looked at it and accepted the new list:
//
//   node scripts/review-dependencies.mjs            check (CI)
//   node scripts/review-dependencies.mjs --accept   after reviewing the changes it lists
//
// Why both: the registry this project is built against refuses the audit endpoint (405 on
// /-/npm/v1/security/advisories/bulk), so the audit alone would check nothing there; a reviewed
// list at least makes every new package, and every new install script, a deliberate step.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIST = join(root, '.ci', 'reviewed-packages.txt');
const HEADER = [
  '# Packages of package-lock.json as last reviewed (scripts/review-dependencies.mjs --accept).',
  '# path version integrity-prefix flags licence; flags: dev, optional, install-script (runs code at install).',
];

/** One line per installed package, sorted by path. */
function currentLines() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const lines = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path) continue; // the project itself
    const flags = [entry.dev && 'dev', entry.optional && 'optional', entry.hasInstallScript && 'install-script'].filter(Boolean);
    const integrity = entry.integrity ? entry.integrity.slice(0, 23) : entry.link ? `link:${entry.resolved}` : 'no-integrity';
    lines.push([path.replace(/^node_modules\//, ''), entry.version ?? '-', integrity, flags.join(',') || 'prod', entry.license ?? '-'].join(' '));
  }
  return lines.sort();
}

function audit() {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  const counts = report?.metadata?.vulnerabilities;
  if (!counts) {
    const why = report?.message ?? run.error?.message ?? (run.stderr.trim().split('\n').pop() || 'no answer');
    console.log(`npm audit: not available from this registry (${why}); the lockfile review below stands in for it`);
    return true;
  }
  const serious = (counts.high ?? 0) + (counts.critical ?? 0);
  console.log(`npm audit (production dependencies): ${JSON.stringify(counts)}`);
  return serious === 0;
}

const lines = currentLines();
if (process.argv.includes('--accept')) {
  writeFileSync(LIST, `${[...HEADER, ...lines].join('\n')}\n`);
  console.log(`review-dependencies: ${lines.length} packages recorded in ${LIST}`);
  process.exit(0);
}

const auditOk = audit();
const reviewed = existsSync(LIST) ? readFileSync(LIST, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')) : [];
const byPath = (list) => new Map(list.map((l) => [l.split(' ')[0], l]));
const before = byPath(reviewed);
const after = byPath(lines);
const changes = [];
for (const [path, line] of after) {
  const old = before.get(path);
  if (!old) changes.push(`  added    ${line}`);
  else if (old !== line) changes.push(`  changed  ${old}\n        -> ${line}`);
}
for (const [path, line] of before) if (!after.has(path)) changes.push(`  removed  ${line}`);

if (changes.length) {
  console.log(`lockfile review: ${changes.length} package(s) differ from ${LIST}:`);
  console.log(changes.join('\n'));
  console.log('Review them (what each is for, its maintainers, any install script), then run `node scripts/review-dependencies.mjs --accept` and commit the list.');
} else {
  console.log(`lockfile review: all ${lines.length} packages as reviewed`);
}
process.exit(auditOk && changes.length === 0 ? 0 : 1);
