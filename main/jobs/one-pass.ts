const noop = (): void => undefined;

/** Passes over a queue that never overlap; see `createOnePass`. */
export interface OnePass {
  /** Asks for a pass: starts one now, or one more after the pass in progress. Ignored while `wanted()` is false. */
  request(): void;
  /** Runs `work` as the pass in progress (start-up recovery); its result, rejection included, is the caller's. */
  exclusive(work: () => Promise<void>): Promise<void>;
  /** Settles when the pass in progress, and any asked for during it, have ended. */
  settled(): Promise<void>;
}

/**
 * One pass at a time over a queue whose store answers later (a networked database): a wake-up
 * during a pass asks for one more after it instead of a second pass beside it, so a claim still
 * waiting on the database cannot push the work running past its limit. `pass` must not reject.
 */
export function createOnePass(pass: () => Promise<void>, wanted: () => boolean): OnePass {
  let current: Promise<void> | undefined;
  let again = false;
  const exclusive = (work: () => Promise<void>): Promise<void> => {
    const done = work();
    current = done.then(noop, noop).then(() => {
      current = undefined;
      if (again) {
        again = false;
        request();
      }
    });
    return done;
  };
  const request = (): void => {
    if (!wanted()) return;
    if (current) {
      again = true;
      return;
    }
    void exclusive(pass);
  };
  const settled = async (): Promise<void> => {
    while (current) await current;
  };
  return { request, exclusive, settled };
}
