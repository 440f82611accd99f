import { describe, expect, it } from 'vitest';
import { createEnginePool } from '../../main/services/engines/engine-pool.js';

/** A pool over fake engines with a clock and timers the test moves by hand. */
function harness(opts: { idleMs?: number; failLoad?: boolean } = {}) {
  let time = 0;
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  const events: string[] = [];
  const pool = createEnginePool<{ name: string }>({
    create: (name) => {
      events.push(`create ${name}`);
      return { name };
    },
    load: async (name) => {
      events.push(`load ${name}`);
      if (opts.failLoad) throw new Error('corrupt model file');
    },
    dispose: async (name) => void events.push(`dispose ${name}`),
    idleMs: (name) => (name === 'embedded' ? 0 : (opts.idleMs ?? 1000)),
    now: () => time,
    schedule: (fn, ms) => {
      const t = { at: time + ms, fn, cancelled: false };
      timers.push(t);
      return () => void (t.cancelled = true);
    },
  });
  const advance = async (ms: number): Promise<void> => {
    time += ms;
    for (const t of timers.filter((x) => !x.cancelled && x.at <= time)) {
      t.cancelled = true;
      t.fn();
    }
    await new Promise((r) => setImmediate(r));
  };
  return { pool, events, advance };
}

describe('engine pool', () => {
  it('builds an engine on first use only, and shares it between users', () => {
    const { pool, events } = harness();
    expect(events).toEqual([]);
    const a = pool.acquire('whisper');
    const b = pool.acquire('whisper');
    expect(a.instance).toBe(b.instance);
    expect(events).toEqual(['create whisper']);
    expect(pool.inUse('whisper')).toBe(true);
    a.release();
    b.release();
    expect(pool.inUse('whisper')).toBe(false);
  });

  it('unloads a model unused for its idle time, and builds it again on the next use', async () => {
    const { pool, events, advance } = harness({ idleMs: 1000 });
    pool.acquire('whisper').release();
    await advance(999);
    expect(pool.loaded()).toEqual(['whisper']);
    await advance(1);
    expect(pool.loaded()).toEqual([]);
    expect(events).toEqual(['create whisper', 'dispose whisper']);
    pool.acquire('whisper').release();
    expect(events.at(-1)).toBe('create whisper');
  });

  it('never unloads an engine while a session holds it, however long', async () => {
    const { pool, advance } = harness({ idleMs: 1000 });
    const session = pool.acquire('whisper');
    await advance(60_000);
    expect(pool.loaded()).toEqual(['whisper']);
    expect(await pool.unload('whisper')).toBe(false);
    session.release();
    await advance(1000);
    expect(pool.loaded()).toEqual([]);
  });

  it('keeps an embedded engine (idle time 0) loaded', async () => {
    const { pool, advance } = harness();
    pool.acquire('embedded').release();
    await advance(10_000_000);
    expect(pool.loaded()).toEqual(['embedded']);
  });

  it('drops an engine whose model fails to load, with the reason', async () => {
    const { pool, events } = harness({ failLoad: true });
    await expect(pool.warm('broken')).rejects.toThrow('corrupt model file');
    expect(pool.loaded()).toEqual([]);
    expect(events).toEqual(['create broken', 'load broken', 'dispose broken']);
  });
});
