/**
 * A cap on how many native recogniser calls run on libuv's thread pool at once. Without it every
 * live session's chunk takes a pool thread: on a machine with fewer cores than sessions the
 * decoders then time-share the cores (each with its own ~90 MB of model data, so caches thrash and
 * every call gets slower), and the pool has no thread left for the API's file and crypto work.
 * Waiting calls start in call order, so sessions take turns chunk by chunk.
 */
export interface NativeSlots {
  /** Runs `fn` once a slot is free; the slot is held until its promise settles. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

/** Creates a cap of `max` concurrent calls (at least 1). */
export function createNativeSlots(max: number): NativeSlots {
  const limit = Math.max(1, Math.floor(max));
  let active = 0;
  const queue: Array<() => void> = [];

  const next = (): void => {
    if (active >= limit) return;
    const start = queue.shift();
    if (!start) return;
    active++;
    start();
  };

  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      return new Promise((resolve, reject) => {
        const done = (): void => {
          // The slot is free before the caller resumes, so its next call can take it at once.
          active--;
          next();
        };
        queue.push(() => {
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
        next();
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
