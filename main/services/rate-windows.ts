/** A key's fixed window after one more request was counted in it. */
export interface RateWindow {
  /** Requests counted in the window, this one included. */
  count: number;
  /** When the window ends (ms since 1970); the first request from then on opens a new one. */
  resetAt: number;
}

/**
 * Fixed-window request counters, the rate limit's storage port. In memory for one process (the
 * desktop, one server); in the shared database (main/store/pg/rate-windows.ts) when several API
 * instances answer one clinic, so a client spreading requests over them gets no more in total.
 */
export interface RateWindows {
  /**
   * Counts one request under `key` at `now` (ms). A key's window opens at its first request and
   * lasts `windowMs`; a request at or after its end opens the next one with a count of 1.
   */
  hit(key: string, windowMs: number, now: number): Promise<RateWindow>;
}

/** Counters in this process's memory; windows that ended are dropped at most once per window length. */
export function createMemoryRateWindows(): RateWindows {
  const windows = new Map<string, RateWindow>();
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    hit(key, windowMs, now) {
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return Promise.resolve({ count: w.count, resetAt: w.resetAt });
    },
  };
}
