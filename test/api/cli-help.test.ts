/**
 * The `clindoc` command table: the parser and every help text are built from it, and a usage
 * mistake exits 2 where a refused command exits 1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram, COMMANDS } from '../../main/cli/program.js';
import { runCli } from '../support/child.js';

/** The parser's command for `accounts create`-style names. */
function find(program: Command, name: string): Command | undefined {
  let at: Command | undefined = program;
  for (const word of name.split(' ')) at = at?.commands.find((c) => c.name() === word);
  return at;
}

describe('clindoc command table', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-cli-help-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gives every row a command whose help names its arguments and options', () => {
    const program = buildProgram(async () => undefined);
    expect(COMMANDS.map((c) => c.name)).toEqual(expect.arrayContaining(['accounts create', 'keys revoke', 'serve', 'stream', 'backup', 'restore', 'models pull', 'codes import', 'credentials', 'data reencrypt']));
    for (const row of COMMANDS) {
      const help = find(program, row.name)?.helpInformation() ?? `no command for ${row.name}`;
      expect(help, row.name).toContain(`Usage: clindoc ${row.name}`);
      for (const option of row.options ?? []) expect(help, `${row.name} ${option.flags}`).toContain(option.flags);
      for (const argument of row.args ?? []) expect(help, `${row.name} ${argument.name}`).toContain(argument.name.slice(1, -1));
    }
  });

  it('prints the help generated from the table and tells usage mistakes (2) from refusals (1)', { timeout: 60_000 }, async () => {
    const env = { CLINDOC_DATA_DIR: join(dataDir, 'data') };
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    for (const row of COMMANDS) expect(help.stdout).toContain(`clindoc ${row.name}`);
    const one = await runCli(['restore', '--help'], env);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--key-file <key>');

    const unknown = await runCli(['acounts', 'list'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^clindoc: unknown command 'acounts'/);
    const missing = await runCli(['keys', 'revoke'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'key-id'");
    // Every required argument is commander's to enforce: the handlers read it with input.arg() and check nothing.
    const noFile = await runCli(['backup'], env);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("missing required argument 'file'");
    const badRole = await runCli(['serve', '--role', 'boss'], env);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('api, worker, all');

    const refused = await runCli(['accounts', 'retention', '--account', 'acct_nobody'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('clindoc: no such account\n');
  });

  it('shows the configuration in effect, each secret only as set', { timeout: 60_000 }, async () => {
    const secrets = { CLINDOC_LLM_API_KEY: 'sk-Zq9-llm-secret', CLINDOC_METRICS_TOKEN: 'Zq9-metrics-token-long-enough', CLINDOC_ENCRYPTION_KEY: 'ab'.repeat(32) };
    // A URL's password is a secret in whichever variable it sits.
    const mirror = 'https://mirror-user:Zq9-mirror-pass@mirror.example/models';
    const shown = await runCli(['config', '--json'], { CLINDOC_DATA_DIR: join(dataDir, 'data'), CLINDOC_PORT: '9123', CLINDOC_MODEL_MIRROR: mirror, ...secrets });
    expect(shown.code).toBe(0);
    for (const value of [...Object.values(secrets), 'Zq9-mirror-pass', 'mirror-user']) expect(shown.stdout).not.toContain(value);
    const byName = new Map((JSON.parse(shown.stdout) as Array<{ name: string; value: string | null; source: string }>).map((v) => [v.name, v]));
    expect(byName.get('CLINDOC_PORT')).toEqual({ name: 'CLINDOC_PORT', value: '9123', source: 'environment' });
    expect(byName.get('CLINDOC_LLM_API_KEY')).toEqual({ name: 'CLINDOC_LLM_API_KEY', value: '(secret, set)', source: 'environment' });
    expect(byName.get('CLINDOC_MODEL_MIRROR')?.value).toBe('https://***@mirror.example/models');
    const refused = await runCli(['config'], { CLINDOC_DATA_DIR: join(dataDir, 'data'), CLINDOC_MODEL_MIRROR: 'ftp://mirror-user:Zq9-mirror-pass@mirror.example' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('CLINDOC_MODEL_MIRROR');
    expect(refused.stderr).not.toContain('Zq9-mirror-pass');
    expect(byName.get('CLINDOC_RATE_LIMIT')).toEqual({ name: 'CLINDOC_RATE_LIMIT', value: '600', source: 'default' });
    expect(byName.get('CLINDOC_AUTH_MAX_FAILURES')?.value).toBe('10');
    // Unset here; on a suite run against PostgreSQL it is set, and then shown only as set.
    expect([null, '(secret, set)']).toContain(byName.get('CLINDOC_DATABASE_URL')?.value);
  });
});
