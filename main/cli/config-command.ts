/**
 * `clindoc config`: the configuration this installation runs with, one variable a line, read by
 * the same table and loader as the server (main/config-table.ts). A secret's value is never
 * printed: only whether it is set.
 */
import type { ClindocConfig } from '../config.js';
import { FIELD_VARIABLES } from '../config-table.js';
import { withoutCredentials, type Env } from '../config-values.js';
import { JSON_OPTION, type CliCommand } from './command.js';

export interface ShownVariable {
  name: string;
  /** The value in effect, written as in the environment; `(secret, set)` for a set secret; null when unset and without default. */
  value: string | null;
  /** `environment` when the variable was given, else `default`. */
  source: 'environment' | 'default';
}

/** The value at `authThrottle.maxFailures`-style paths. */
function valueAt(config: ClindocConfig, field: string): unknown {
  let at: unknown = config;
  for (const key of field.split('.')) at = at === undefined ? undefined : (at as Record<string, unknown>)[key];
  return at;
}

/** Each variable `loadConfig` reads, with the value it gave; secrets only as set or not. */
export function showConfig(config: ClindocConfig, env: Env): ShownVariable[] {
  return FIELD_VARIABLES.map((row) => {
    const value = valueAt(config, row.field);
    const source = env[row.name]?.trim() ? 'environment' : 'default';
    if (value === undefined) return { name: row.name, value: null, source };
    if (row.secret) return { name: row.name, value: '(secret, set)', source };
    // A URL's user and password are secret whichever variable holds it (a model mirror, a server).
    return { name: row.name, value: withoutCredentials(Array.isArray(value) ? value.join(',') : String(value)), source };
  });
}

export const CONFIG_COMMANDS: readonly CliCommand[] = [
  {
    name: 'config',
    summary: 'show the configuration in effect (each CLINDOC_ variable and where its value came from; secrets only as set)',
    options: [JSON_OPTION],
    run(input) {
      const shown = showConfig(input.session.config(), process.env);
      input.print(shown, shown.map((v) => `${v.name}=${v.value ?? ''}${v.source === 'default' ? '  (default)' : ''}`).join('\n'));
    },
  },
];
