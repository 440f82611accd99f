import { describe, expect, it } from 'vitest';
import { createNativeSlots } from '../../main/engines/speech/pocketsphinx/native-slots.js';

/** A call that finishes when the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('native call slots', () => {
  it('runs at most the cap at once and starts waiting calls in call order', async () => {
    const slots = createNativeSlots(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const done = gates.map((g, i) => slots.run(async () => {
      started.push(i);
      await g.promise;
      return i;
    }));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([slots.active, slots.waiting]).toEqual([2, 3]);
    gates[1]!.open();
    await done[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('frees the slot of a call that fails', async () => {
    const slots = createNativeSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('native failure')))).rejects.toThrow('native failure');
    expect(await slots.run(async () => 'next')).toBe('next');
    expect(slots.active).toBe(0);
  });

  it('starts a live call before batch calls queued earlier, and batch goes on after it', async () => {
    const slots = createNativeSlots(1);
    const first = gate();
    const started: string[] = [];
    const call = (id: string, g?: { promise: Promise<void> }) => async () => {
      started.push(id);
      await g?.promise;
      return id;
    };
    const running = slots.run(call('batch-1', first), 'batch');
    const queued = [slots.run(call('batch-2'), 'batch'), slots.run(call('batch-3'), 'batch'), slots.run(call('live-1'), 'live')];
    expect(started).toEqual(['batch-1']);
    first.open();
    await Promise.all([running, ...queued]);
    expect(started).toEqual(['batch-1', 'live-1', 'batch-2', 'batch-3']);
    expect(slots.started).toEqual({ live: 1, batch: 3 });
  });

  it('keeps a thread free for an open live session and gives it back when the session closes', async () => {
    const slots = createNativeSlots(2);
    const leave = slots.openLive();
    const gates = [gate(), gate(), gate()];
    const done = gates.map((g) => slots.run(() => g.promise, 'batch'));
    expect([slots.active, slots.waiting]).toEqual([1, 2]);
    expect(await slots.run(async () => 'live', 'live')).toBe('live'); // did not wait for a batch call
    leave();
    expect([slots.active, slots.waiting]).toEqual([2, 1]);
    for (const g of gates) g.open();
    await Promise.all(done);
  });
});
