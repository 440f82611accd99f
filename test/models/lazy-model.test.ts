import { describe, expect, it } from 'vitest';
import { lazyModel } from '../../main/engines/models/lazy-model.js';
import { DomainError, engineUnavailable } from '../../main/services/errors.js';

/** The one lazy loader every model engine (ONNX CTC, ONNX Whisper, llama.cpp) loads through. */
describe('lazy model loading', () => {
  it('loads once for callers side by side, and not before the first use', async () => {
    let loads = 0;
    const model = lazyModel('test: the model', async () => ({ n: ++loads }), () => undefined);
    expect(loads).toBe(0);
    const got = await Promise.all([model.get(), model.get(), model.get()]);
    expect(loads).toBe(1);
    expect(new Set(got).size).toBe(1);
  });

  it('reports a failed load as a 503 naming the model and why, and tries again on the next call', async () => {
    let tries = 0;
    const model = lazyModel('test: the model', async () => {
      if (++tries === 1) throw new Error('file not found: /models/x.onnx');
      return 'ready';
    }, () => undefined);
    const err = await model.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(503);
    expect((err as DomainError).message).toBe('test: the model could not be loaded (file not found: /models/x.onnx)');
    expect(await model.get()).toBe('ready');
    expect(tries).toBe(2);
  });

  it("passes the engine's own DomainError as it is", async () => {
    const own = engineUnavailable('test: the model has no tensor input');
    const model = lazyModel('test: the model', () => Promise.reject(own), () => undefined);
    expect(await model.get().catch((e: unknown) => e)).toBe(own);
  });

  it('frees what was loaded once, after a load in flight settles, and loads again after', async () => {
    const freed: number[] = [];
    let loads = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const model = lazyModel('test: the model', async () => {
      const n = ++loads;
      if (n === 1) await gate;
      return n;
    }, (n) => void freed.push(n));
    const first = model.get();
    const released = model.release();
    finish();
    await released;
    expect(await first).toBe(1);
    expect(freed).toEqual([1]);
    await model.release(); // nothing loaded: nothing freed twice
    expect(freed).toEqual([1]);
    expect(await model.get()).toBe(2);
  });
});
