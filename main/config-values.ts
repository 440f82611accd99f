/**
 * How configuration values are read from the environment (whole numbers in a range, fractions,
 * flags, lists, http(s) URLs), the error that names a bad variable, and where Clindoc's data
 * lives by default. Which variables exist and what they mean is main/config.ts's alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

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

export const url = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
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
