/**
 * How configuration values are read from the environment (whole numbers in a range, fractions,
 * flags, lists, http(s) URLs), the error that names a bad variable, and where Clindoc's data
 * lives by default. Which variables exist and what they mean is main/config-table.ts's alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export const int = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
};

export const fraction = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value < 0 || value > 1) throw new ConfigError(name, `must be a number from 0 to 1, got "${raw}"`);
  return value;
};

export const flag = (env: Env, name: string, fallback: boolean): boolean => {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
};

export const list = (env: Env, name: string): string[] =>
  (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** A value with any URL's user name and password replaced by `***`: a URL may carry credentials. */
export const withoutCredentials = (value: string): string => value.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@');

export const url = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${withoutCredentials(raw)}"`);
  }
  return raw.replace(/\/+$/, '');
};

/** The folder a checkout of Clindoc runs from, if the working directory is one. */
export function checkoutRoot(cwd: string): string | undefined {
  const pkg = join(cwd, 'package.json');
  if (!existsSync(pkg)) return undefined;
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'clindoc' ? cwd : undefined;
  } catch {
    return undefined;
  }
}

/** The platform's per-user application data folder for Clindoc. */
export function platformDataDir(env: Env = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Clindoc');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Clindoc');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'clindoc');
}

/** What a table row's reader may use besides the environment: where the defaults of folders come from. */
export interface ReadContext {
  /** The checkout Clindoc runs from, if the working directory is one (the data folder's default). */
  checkout: string | undefined;
  /** The built interface's folder (CLINDOC_RENDERER_DIR's default). */
  rendererDir: string;
}

/** Reads one variable: its value, or undefined when it is unset and has no default. Throws ConfigError. */
export type Reader<T> = (env: Env, name: string, context: ReadContext) => T;

/**
 * How one kind of value is read and documented: the reader and, from the same numbers, the type,
 * default and range the generated tables show (a row may word its default itself).
 */
export interface ValueKind<T> {
  read: Reader<T>;
  type: string;
  default: string;
  range?: string;
  /** A path that must exist; checked after the rules between variables (see main/config.ts). */
  exists?: { kind: 'file' | 'folder'; message?: string };
}

const shown = (value: string | number | boolean): string => `\`${value}\``;

/** A whole number from `min` to `max`, `fallback` when unset. */
export function integer(fallback: number, min: number, max: number): ValueKind<number> {
  return { type: 'whole number', default: shown(fallback), range: `${min}–${max}`, read: (env, name) => int(env, name, fallback, min, max) };
}

/** A whole number from `min` to `max`, absent when unset (the engine then chooses). */
export function optionalInteger(min: number, max: number): ValueKind<number | undefined> {
  return { type: 'whole number', default: 'none', range: `${min}–${max}`, read: (env, name) => (env[name] ? int(env, name, min, min, max) : undefined) };
}

/** A number from 0 to 1. */
export function share(fallback: number): ValueKind<number> {
  return { type: 'number', default: shown(fallback), range: '0–1', read: (env, name) => fraction(env, name, fallback) };
}

/** true/false (also 1/0, yes/no, on/off). */
export function trueOrFalse(fallback: boolean): ValueKind<boolean> {
  return { type: 'true/false', default: shown(fallback), read: (env, name) => flag(env, name, fallback) };
}

/** One of a few words; `message` words the refusal where the shared one would read badly. */
export function oneOf<const C extends readonly string[]>(choices: C, fallback: C[number], message?: (value: string) => string): ValueKind<C[number]> {
  return {
    type: 'one of', default: shown(fallback), range: choices.map(shown).join(', '),
    read: (env, name) => {
      const value = env[name]?.trim() || fallback;
      if (!choices.includes(value)) throw new ConfigError(name, message ? message(value) : `must be one of ${choices.join(', ')}`);
      return value as C[number];
    },
  };
}

/**
 * A comma-separated list. `entry` returns why one entry is refused (or nothing); `whole` may
 * refuse the list by throwing; `otherwise` is the list when none is given.
 */
export function commaList(options: { entry?: (entry: string) => string | undefined; whole?: (entries: string[]) => void; map?: (entry: string) => string; otherwise?: () => string[] } = {}): ValueKind<string[]> {
  return {
    type: 'comma-separated list', default: 'none',
    read: (env, name) => {
      const entries = list(env, name);
      for (const entry of entries) {
        const refused = options.entry?.(entry);
        if (refused) throw new ConfigError(name, refused);
      }
      try {
        options.whole?.(entries);
      } catch (err) {
        throw new ConfigError(name, (err as Error).message);
      }
      if (!entries.length && options.otherwise) return options.otherwise();
      return options.map ? entries.map(options.map) : entries;
    },
  };
}

/** An http(s) URL, its trailing slashes dropped; absent when unset. */
export function httpUrl(): ValueKind<string | undefined> {
  return { type: 'http(s) URL', default: 'none', read: (env, name) => url(env, name) };
}

interface TextOptions {
  trim?: boolean;
  pattern?: RegExp;
  refused?: string | ((value: string) => string);
}

/**
 * Text, trimmed (`trim: false` keeps it as given: API keys pass through untouched); `fallback`
 * when unset or empty, else absent. `pattern` and `refused` check it; a secret's `refused` must
 * not quote the value.
 */
export function text(options: TextOptions & { fallback: string }): ValueKind<string>;
export function text(options?: TextOptions): ValueKind<string | undefined>;
export function text(options: TextOptions & { fallback?: string } = {}): ValueKind<string | undefined> {
  return {
    type: 'text', default: options.fallback === undefined ? 'none' : shown(options.fallback),
    read: (env, name) => {
      const value = (options.trim === false ? env[name] : env[name]?.trim()) || options.fallback;
      if (value !== undefined && options.pattern && !options.pattern.test(value)) throw new ConfigError(name, typeof options.refused === 'function' ? options.refused(value) : options.refused ?? 'is not valid');
      return value;
    },
  };
}

/**
 * A file or folder path, absent when unset. `exists` makes a missing one stop the start;
 * `absolute` resolves it against the working directory.
 */
export function path(options: { exists?: 'file' | 'folder'; missing?: string; absolute?: boolean } = {}): ValueKind<string | undefined> {
  return {
    type: options.exists ?? 'folder', default: 'none',
    ...(options.exists ? { exists: { kind: options.exists, ...(options.missing ? { message: options.missing } : {}) } } : {}),
    read: (env, name) => {
      const value = env[name]?.trim() || undefined;
      return value && options.absolute ? resolve(value) : value;
    },
  };
}
