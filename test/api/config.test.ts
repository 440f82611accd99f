import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../main/config.js';
import { freePort, startHeadless } from '../support/child.js';

describe('configuration', () => {
  it('has documented defaults', () => {
    const config = loadConfig({}, '/nonexistent-dir');
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.rateLimit).toBe(600);
    expect(config.maxAudioBytes).toBe(100 * 1024 * 1024);
    expect(config.corsOrigins).toEqual([]);
    expect(config.dataDir).toMatch(/clindoc|Clindoc/);
  });

  it.each([
    ['CLINDOC_PORT', 'eighty'],
    ['CLINDOC_PORT', '70000'],
    ['CLINDOC_RATE_LIMIT', '0'],
    ['CLINDOC_LOG_LEVEL', 'loud'],
    ['CLINDOC_CORS_ORIGINS', 'evil.example'],
    ['CLINDOC_LLM_BASE_URL', 'ftp://x'],
    ['CLINDOC_ASR_ENGINE', 'magic'],
    ['CLINDOC_ROLE', 'boss'],
    // Split roles need the shared PostgreSQL queue; on SQLite one process does both.
    ['CLINDOC_ROLE', 'api'],
    ['CLINDOC_ROLE', 'worker'],
    ['CLINDOC_JOB_MAX_ATTEMPTS', '0'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('takes split roles with a shared database', () => {
    const shared = { CLINDOC_DATABASE_URL: 'postgres://clindoc@db.clinic.internal/clindoc', CLINDOC_ENCRYPTION_KEY: 'a'.repeat(64) };
    expect(loadConfig({ ...shared, CLINDOC_ROLE: 'worker' }, '/nonexistent-dir').role).toBe('worker');
    expect(loadConfig({ ...shared, CLINDOC_ROLE: 'api' }, '/nonexistent-dir').role).toBe('api');
    expect(loadConfig({}, '/nonexistent-dir').role).toBe('all');
  });

  it('stops npm run serve with a message naming the bad variable', async () => {
    await expect(startHeadless({ CLINDOC_PORT: String(await freePort()), CLINDOC_RATE_LIMIT: 'lots' })).rejects.toThrow(/CLINDOC_RATE_LIMIT/);
  });
});
