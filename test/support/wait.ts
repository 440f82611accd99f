/**
 * How long a test waits for an event before it fails: long enough for a 2-core machine running two
 * suites at once (a note job there took 29 s), so that only an event that never comes fails a test.
 */
export const EVENT_WAIT_MS = 90_000;

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = EVENT_WAIT_MS, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
