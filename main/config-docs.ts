/**
 * The configuration's documentation, generated from the table (main/config-table.ts): README's
 * configuration table, between its markers, docs/configuration.md, and the configuration blocks
 * of other docs pages. `npm run docs:config`
 * writes both; test/api/configuration-truth.test.ts fails when either differs from what this
 * module makes, so the documentation cannot drift from what `loadConfig` does.
 */
import { CONFIG_VARIABLES, type ConfigVariable } from './config-table.js';

export const README_START = '<!-- configuration table: generated from main/config-table.ts by `npm run docs:config`; edit the table there -->';
export const README_END = '<!-- end of the generated configuration table -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const rows = (): readonly ConfigVariable[] => CONFIG_VARIABLES;

/** README's table: variable, default, meaning; secrets marked. */
export function readmeTable(): string {
  const lines = ['| Variable | Default | Meaning |', '|---|---|---|'];
  for (const row of rows()) lines.push(`| \`${row.name}\`${row.secret ? ' (secret)' : ''} | ${cell(row.default)} | ${cell(row.meaning)} |`);
  return lines.join('\n');
}

/** README with its configuration table (between the markers) as the table makes it. Throws when the markers are missing. */
export function withReadmeTable(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error('README.md has no configuration table markers (README_START … README_END in main/config-docs.ts)');
  return `${readme.slice(0, start)}${README_START}\n${readmeTable()}\n${readme.slice(end)}`;
}

const BLOCK = /(<!-- configuration rows: ([A-Z0-9_ ]+) -->\n)[\s\S]*?(<!-- end of configuration rows -->)/g;

/**
 * A docs page with each of its configuration blocks filled: `<!-- configuration rows: NAME NAME -->`
 * … `<!-- end of configuration rows -->` becomes a table of the variables named, so a
 * page about one subject lists its variables without a second copy of their defaults. Throws on a
 * name the table lacks.
 */
export function withDocBlocks(page: string): string {
  return page.replace(BLOCK, (_block, start: string, names: string, end: string) => {
    const lines = ['| Variable | Default | Meaning |', '|---|---|---|'];
    for (const name of names.trim().split(/\s+/)) {
      const row = rows().find((r) => r.name === name);
      if (!row) throw new Error(`a docs page lists ${name}, which main/config-table.ts does not declare`);
      lines.push(`| \`${row.name}\`${row.secret ? ' (secret)' : ''} | ${beside(row.default)} | ${beside(row.meaning)} |`);
    }
    return `${start}${lines.join('\n')}\n${end}`;
  });
}

/** The meanings link from the README (`docs/deploy.md`); a page in docs/ sits beside those pages. */
const beside = (text: string): string => cell(text).replace(/\]\(docs\//g, '](');

/** docs/configuration.md: every variable with its type, range, whether it is a secret and what reads it. */
export function configurationPage(): string {
  const head = [
    '# Configuration',
    '',
    '<!-- Generated from main/config-table.ts by `npm run docs:config`; edit the table there. -->',
    '',
    'Clindoc reads its configuration from environment variables when it starts. A bad value stops',
    'start-up (exit status 2) with a message naming the variable; a secret\'s value is never quoted in',
    'that message, and `clindoc config` (the configuration in effect) shows a secret only as set. An',
    'empty value counts as unset. True/false also takes `1`/`0`, `yes`/`no`, `on`/`off`.',
    '',
    '| Variable | Type | Default | Range | Secret | Read into | Meaning |',
    '|---|---|---|---|---|---|---|',
  ];
  const body = rows().map((row) =>
    `| \`${row.name}\` | ${cell(row.type)} | ${beside(row.default)} | ${cell(row.range ?? '')} | ${row.secret ? 'yes' : ''} | ${row.field ? `\`${row.field}\`` : cell(row.readBy)} | ${beside(row.meaning)} |`);
  return `${[...head, ...body].join('\n')}\n`;
}
