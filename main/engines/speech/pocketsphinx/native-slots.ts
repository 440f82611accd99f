/**
 * The recogniser's thread pool: a cap on how many native recogniser calls run on libuv's thread
 * pool at once, shared by live sessions and batch transcription. Without the cap every live
 * session's chunk takes a pool thread: on a machine with fewer cores than sessions the decoders
 * then time-share the cores (each with its own ~90 MB of model data, so caches thrash and every
 * call gets slower), and the pool has no thread left for the API's file and crypto work.
 *
 * Which waiting call starts next is the product's scheduling policy
 * (`main/services/transcriptions/work-scheduler.ts`): live calls before batch calls, batch held
 * below the thread count while a live session is open, no batch call waiting forever; within a
 * class, call order.
 */
import { createWorkScheduler, type WorkClass, type WorkSchedulingPolicy } from '../../../services/transcriptions/work-scheduler.js';

export interface NativeSlots {
  /** Runs `fn` once the policy gives it a slot; the slot is held until its promise settles. Default class `live`. */
  run<T>(fn: () => Promise<T>, cls?: WorkClass): Promise<T>;
  /** A live session opened (batch then keeps a thread free for it); returns its close. */
  openLive(): () => void;
  readonly active: number;
  readonly waiting: number;
  /** Calls started so far, per class (for benchmarks and tests of the order). */
  readonly started: Readonly<Record<WorkClass, number>>;
}

export interface NativeSlotsOptions extends Partial<Omit<WorkSchedulingPolicy, 'slots'>> {
  /** Clock of the policy's batch wait, ms; default `performance.now`. */
  now?: () => number;
}

/** Creates a pool of `max` concurrent calls (at least 1). */
export function createNativeSlots(max: number, options: NativeSlotsOptions = {}): NativeSlots {
  const { now = () => performance.now(), ...policy } = options;
  const scheduler = createWorkScheduler<() => void>({ ...policy, slots: Math.max(1, Math.floor(max)) }, now);
  const started: Record<WorkClass, number> = { live: 0, batch: 0 };

  const pump = (): void => {
    for (const { cls, job } of scheduler.take()) {
      started[cls]++;
      job();
    }
  };

  return {
    run<T>(fn: () => Promise<T>, cls: WorkClass = 'live'): Promise<T> {
      return new Promise((resolve, reject) => {
        const done = (): void => {
          // The slot is free before the caller resumes; the policy picks who takes it.
          scheduler.finished(cls);
          pump();
        };
        scheduler.submit(cls, () => {
          let call: Promise<T>;
          try {
            call = fn();
          } catch (err) {
            call = Promise.reject(err);
          }
          call.then(
            (value) => {
              done();
              resolve(value);
            },
            (err: unknown) => {
              done();
              reject(err);
            },
          );
        });
        pump();
      });
    },
    openLive() {
      const close = scheduler.openLive();
      return () => {
        close();
        pump(); // batch may take the thread the session kept free
      };
    },
    get active() {
      const r = scheduler.running;
      return r.live + r.batch;
    },
    get waiting() {
      const w = scheduler.waiting;
      return w.live + w.batch;
    },
    get started() {
      return { ...started };
    },
  };
}
