/**
 * Configuration truth: the variables the README documents are exactly the ones the code reads.
 * App variables (read by main/) are rows of main/config-table.ts, from which the README's
 * Configuration table and docs/configuration.md are generated (and must be as generated);
 * development variables (read only by scripts/, bench/ and the tests) belong in the README's
 * Development table; every CLINDOC_ name mentioned anywhere in the docs or the code must be read by something.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { ROOT } from '../support/child.js';
import { CONFIG_VARIABLES, type ConfigVariable } from '../../main/config-table.js';
import { configurationPage, withDocBlocks, withReadmeTable } from '../../main/config-docs.js';
import { ConfigError, loadConfig } from '../../main/config.js';

const MENTION = /\bCLINDOC_[A-Z0-9_]*[A-Z0-9]\b/g;

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

const isCode = (path: string): boolean => /\.(ts|tsx|mts)$/.test(path) && !path.endsWith('.d.ts');

/**
 * Environment variables a source file reads: `env.X`, `process.env.X`, `env['X']`, and a string
 * literal that is exactly a variable name (passed to a reader such as `int(env, 'X', ...)`).
 * esbuild first strips types and comments, so a name in a comment or inside a longer string is
 * not a read: it is a mention, checked separately.
 */
function readsOf(file: string): Set<string> {
  const { code } = transformSync(readFileSync(file, 'utf8'), { loader: file.endsWith('x') ? 'tsx' : 'ts', legalComments: 'none' });
  const reads = new Set<string>();
  for (const m of code.matchAll(/\benv\??\.(CLINDOC_[A-Z0-9_]*[A-Z0-9])\b/g)) reads.add(m[1]!);
  for (const m of code.matchAll(/(["'`])(CLINDOC_[A-Z0-9_]*[A-Z0-9])\1/g)) reads.add(m[2]!);
  return reads;
}

function readsIn(files: string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const file of files) for (const name of readsOf(file)) by.set(name, [...(by.get(name) ?? []), relative(ROOT, file)]);
  return by;
}

/** Variable names in the first column of the table(s) of one README section. */
function tableVariables(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    names.push(...[...line.split('|')[1]!.matchAll(/`(CLINDOC_[A-Z0-9_]+)`/g)].map((m) => m[1]!));
  }
  return names;
}

const sorted = (items: Iterable<string>): string[] => [...new Set(items)].sort();
const minus = (a: Iterable<string>, b: Iterable<string>): string[] => {
  const drop = new Set(b);
  return sorted([...a].filter((x) => !drop.has(x)));
};

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const appFiles = filesUnder(join(ROOT, 'main'), isCode);
// The test suite's own variables (the throwaway PostgreSQL it runs against) count as development variables.
const scriptFiles = ['scripts', 'bench', 'test'].flatMap((dir) => filesUnder(join(ROOT, dir), isCode)).filter((f) => f !== import.meta.filename);
const appReads = readsIn(appFiles);
const scriptReads = readsIn(scriptFiles);
const configured = tableVariables(readme, 'Configuration');
const TABLE = 'main/config-table.ts';
const rows: readonly ConfigVariable[] = CONFIG_VARIABLES;
// The table names every variable as a string, which the reader heuristic counts as a read; what
// the rest of main/ reads is counted without it.
const readsOutsideTable = readsIn(appFiles.filter((f) => relative(ROOT, f) !== TABLE));
const development = tableVariables(readme, 'Development');

describe('configuration truth', () => {
  it('finds the readers it checks (a parser that found nothing would pass everything)', () => {
    expect(appReads.get('CLINDOC_PORT')).toContain(TABLE);
    expect(readsOutsideTable.get('CLINDOC_TYPING')).toContain('main/app/dictate-anywhere.ts');
    expect(scriptReads.get('CLINDOC_EVAL_DATA')).toContain('scripts/eval-data.ts');
    expect(configured.length).toBeGreaterThan(30);
    expect(development).toContain('CLINDOC_EVAL_DATA');
  });

  it('documents in the Configuration table exactly the variables the app reads', () => {
    expect({ readButUndocumented: minus(appReads.keys(), configured) }).toEqual({ readButUndocumented: [] });
    expect({ documentedButNotRead: minus(configured, appReads.keys()) }).toEqual({ documentedButNotRead: [] });
    expect({ listedTwice: configured.filter((n, i) => configured.indexOf(n) !== i) }).toEqual({ listedTwice: [] });
  });

  it('documents in the Development table exactly the variables only the scripts read, one meaning each', () => {
    const onlyScripts = minus(scriptReads.keys(), appReads.keys());
    expect({ readByScriptsButUndocumented: minus(onlyScripts, development) }).toEqual({ readByScriptsButUndocumented: [] });
    expect({ documentedButNotRead: minus(development, onlyScripts) }).toEqual({ documentedButNotRead: [] });
    // CLINDOC_DATA_DIR is the app's data folder; a script reading data sets from it would mix a
    // clinic's patient data folder up with evaluation data.
    expect(scriptReads.get('CLINDOC_DATA_DIR') ?? []).toEqual([]);
  });

  it('reads the environment only where configuration is chosen (config, CLI, Electron glue)', () => {
    const allowed = (file: string): boolean => ['main/config.ts', TABLE, 'main/cli.ts', 'main/headless.ts'].includes(file) || file.startsWith('main/app/') || file.startsWith('main/cli/');
    const elsewhere = [...appReads.entries()].flatMap(([name, files]) => files.filter((f) => !allowed(f)).map((f) => `${name} in ${f}`));
    expect(elsewhere).toEqual([]);
  });

  it('has one table row for each variable the app reads, and a variable read elsewhere is read there', () => {
    const names = rows.map((row) => row.name);
    expect({ listedTwice: names.filter((n, i) => names.indexOf(n) !== i) }).toEqual({ listedTwice: [] });
    expect({ readWithoutRow: minus(readsOutsideTable.keys(), names) }).toEqual({ readWithoutRow: [] });
    // A row with a field is read by loadConfig walking the table; one without says who reads it, and must be right.
    const unread = rows.filter((row) => !row.field && !(readsOutsideTable.get(row.name) ?? []).length).map((row) => row.name);
    expect({ documentedForAReaderThatDoesNotReadIt: unread }).toEqual({ documentedForAReaderThatDoesNotReadIt: [] });
  });

  it('has the README table, docs/configuration.md and the docs pages\' configuration blocks exactly as the table generates them (npm run docs:config)', () => {
    expect(withReadmeTable(readme)).toBe(readme);
    expect(readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8')).toBe(configurationPage());
    expect(configured).toEqual(rows.map((row) => row.name));
    const pages = filesUnder(join(ROOT, 'docs'), (p) => p.endsWith('.md') && !p.endsWith('configuration.md'));
    const withBlocks = pages.filter((page) => readFileSync(page, 'utf8').includes('<!-- configuration rows:'));
    expect(withBlocks.map((page) => relative(ROOT, page))).toContain('docs/llm.md');
    for (const page of withBlocks) {
      const text = readFileSync(page, 'utf8');
      expect({ page: relative(ROOT, page), text: withDocBlocks(text) }).toEqual({ page: relative(ROOT, page), text });
    }
  });

  it('names each field\'s variable in its JSDoc in config-shape.ts (STYLE: JSDoc on every config field)', () => {
    const shape = readFileSync(join(ROOT, 'main', 'config-shape.ts'), 'utf8');
    const fields = (CONFIG_VARIABLES as readonly ConfigVariable[]).filter((row) => row.field !== undefined);
    expect(fields.length).toBeGreaterThan(50);
    expect(fields.filter((row) => !shape.includes(`${row.name} (default `)).map((row) => row.name)).toEqual([]);
  });

  it('never quotes a secret\'s value in the error a bad value gets', () => {
    const marker = 'Zq9-not-a-valid-value';
    const refusal = (env: Record<string, string>): string => {
      try {
        loadConfig(env, '/nonexistent-dir');
        return '';
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
    };
    // The check can fail: an ordinary variable's refusal quotes the value.
    expect(refusal({ CLINDOC_HOST: `${marker} x` })).toContain(marker);
    const secrets = rows.filter((row) => row.secret && row.field);
    expect(secrets.map((row) => row.name)).toEqual(expect.arrayContaining(['CLINDOC_ENCRYPTION_KEY', 'CLINDOC_DATABASE_URL', 'CLINDOC_METRICS_TOKEN', 'CLINDOC_LLM_API_KEY']));
    for (const { name } of secrets) {
      for (const value of [marker, `postgres://clindoc:${marker}@db/clindoc`]) expect({ name, message: refusal({ [name]: value }) }).not.toEqual({ name, message: expect.stringContaining(marker) });
    }
  });

  it('names no variable that nothing reads, in the docs or in the code', () => {
    const read = new Set([...appReads.keys(), ...scriptReads.keys()]);
    const docs = [join(ROOT, 'README.md'), join(ROOT, 'SECURITY.md'), ...filesUnder(join(ROOT, 'docs'), (p) => p.endsWith('.md'))];
    const code = ['main', 'shared', 'renderer', 'preload', 'scripts', 'bench'].flatMap((d) => filesUnder(join(ROOT, d), (p) => /\.(ts|tsx|mts|mjs|cjs|js|sh)$/.test(p)));
    const ghosts = [...docs, ...code].flatMap((file) =>
      [...new Set([...readFileSync(file, 'utf8').matchAll(MENTION)].map((m) => m[0]))].filter((n) => !read.has(n)).map((n) => `${n} in ${relative(ROOT, file)}`),
    );
    expect(ghosts).toEqual([]);
  });

  it('points to nothing outside the repository, except the optional data sets in Development', () => {
    const dev = readme.indexOf('\n## Development\n');
    const devEnd = readme.indexOf('\n## ', dev + 1);
    const outside = readme.slice(0, dev) + readme.slice(devEnd);
    expect(outside).not.toContain('../shared');
    for (const file of [join(ROOT, 'SECURITY.md'), ...filesUnder(join(ROOT, 'docs'), (p) => p.endsWith('.md'))]) {
      expect({ file: relative(ROOT, file), outside: readFileSync(file, 'utf8').includes('../shared') }).toEqual({ file: relative(ROOT, file), outside: false });
    }
    expect(readme).toContain('(docs/api.md)');
    expect(readme).toContain('/docs');
  });
});
