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
});
