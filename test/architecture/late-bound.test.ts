import { describe, expect, it } from 'vitest';
import { lateBound } from '../../main/late-bound.js';

/** The composition's late-bound ports (main/late-bound.ts): a wiring mistake names the port instead of failing later on `undefined`. */
describe('a late-bound port', () => {
  it('names itself when used before the composition binds it', () => {
    const queue = lateBound<{ enqueue(): void }>('job queue');
    expect(() => queue.get()).toThrow('job queue used before the composition bound it');
  });

  it('answers with what it was bound to, undefined included (a start that made no local account)', () => {
    const account = lateBound<{ accountId: string } | undefined>('local account');
    account.bind(undefined);
    expect(account.get()).toBeUndefined();
    const queue = lateBound<string>('job queue');
    queue.bind('the queue');
    expect(queue.get()).toBe('the queue');
  });

  it('is bound once', () => {
    const queue = lateBound<string>('job queue');
    queue.bind('first');
    expect(() => queue.bind('second')).toThrow('job queue bound twice');
    expect(queue.get()).toBe('first');
  });
});
