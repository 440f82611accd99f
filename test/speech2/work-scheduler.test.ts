import { describe, expect, it } from 'vitest';
import { batchCap, createWorkScheduler, nextClass, type WorkClass } from '../../main/services/transcriptions/work-scheduler.js';

/** A scheduler on a clock the test moves by hand. */
function setup(slots: number, policy: { batchSlotsWhileLive?: number; maxBatchWaitMs?: number } = {}) {
  let t = 0;
  const s = createWorkScheduler<string>({ slots, ...policy }, () => t);
  return {
    s,
    advance: (ms: number) => (t += ms),
    /** Ids of the calls that start now. */
    start: (): string[] => s.take().map((x) => x.job),
  };
}

describe('recogniser work scheduling (live first)', () => {
  it('starts a waiting live call before batch calls that were queued earlier', () => {
    const { s, start } = setup(1);
    s.submit('batch', 'b1');
    expect(start()).toEqual(['b1']);
    s.submit('batch', 'b2');
    s.submit('batch', 'b3');
    s.submit('live', 'l1');
    expect(start()).toEqual([]); // the one thread is busy: nobody is cut off mid-call
    s.finished('batch');
    expect(start()).toEqual(['l1']);
    s.finished('live');
    expect(start()).toEqual(['b2']);
  });

  it('keeps calls of one class in the order they came', () => {
    const { s, start } = setup(1);
    for (const id of ['l1', 'l2', 'l3']) s.submit('live', id);
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      order.push(...start());
      s.finished('live');
    }
    expect(order).toEqual(['l1', 'l2', 'l3']);
  });

  it('gives batch every thread when nobody dictates, all but one while a live session is open', () => {
    const { s, start } = setup(2);
    for (const id of ['b1', 'b2', 'b3', 'b4']) s.submit('batch', id);
    expect(start()).toEqual(['b1', 'b2']);
    const closeLive = s.openLive();
    s.finished('batch');
    s.finished('batch');
    expect(start()).toEqual(['b3']); // the other thread waits for the session's next call
    s.submit('live', 'l1');
    expect(start()).toEqual(['l1']); // found free: it did not wait for a batch call to end
    s.finished('live');
    closeLive();
    closeLive(); // closing twice counts once
    expect(s.liveSessions).toBe(0);
    expect(start()).toEqual(['b4']);
  });

  it('never starves batch: a batch call waiting past the limit goes before waiting live calls', () => {
    const { s, advance, start } = setup(1, { maxBatchWaitMs: 2000 });
    s.openLive();
    s.submit('live', 'l0');
    expect(start()).toEqual(['l0']);
    s.submit('batch', 'b1');
    const order: string[] = [];
    // Live calls keep coming faster than the thread frees up: one always waits.
    for (let i = 1; i <= 30 && !order.includes('b1'); i++) {
      s.submit('live', `l${i}`);
      advance(100);
      s.finished('live');
      order.push(...start());
    }
    const at = order.indexOf('b1');
    expect(at).toBeGreaterThan(0); // live went first while the batch call was young
    expect(at).toBe(19); // started at the first free thread once it had waited 2000 ms (t = 2000)
    expect(order.slice(0, at).every((id) => id.startsWith('l'))).toBe(true);
  });

  it('decides from the state alone (pure policy)', () => {
    const state = (running: Record<WorkClass, number>, waiting: Record<WorkClass, number>, liveSessions = 0, oldestBatchSince?: number) => ({
      running, waiting, liveSessions, ...(oldestBatchSince !== undefined ? { oldestBatchSince } : {}),
    });
    const policy = { slots: 3 };
    expect(nextClass(policy, state({ live: 0, batch: 0 }, { live: 1, batch: 1 }, 1, 0), 10)).toBe('live');
    expect(nextClass(policy, state({ live: 0, batch: 2 }, { live: 0, batch: 1 }, 1, 0), 10)).toBeNull();
    expect(nextClass(policy, state({ live: 0, batch: 2 }, { live: 0, batch: 1 }, 0, 0), 10)).toBe('batch');
    expect(nextClass(policy, state({ live: 1, batch: 2 }, { live: 1, batch: 0 }, 1), 10)).toBeNull();
    expect(nextClass(policy, state({ live: 2, batch: 0 }, { live: 1, batch: 1 }, 1, 0), 2000)).toBe('batch');
    expect(batchCap({ slots: 1 }, 3)).toBe(1);
    expect(batchCap({ slots: 4 }, 1)).toBe(3);
    expect(batchCap({ slots: 4, batchSlotsWhileLive: 2 }, 1)).toBe(2);
    expect(batchCap({ slots: 4, batchSlotsWhileLive: 2 }, 0)).toBe(4);
  });
});
