import type { StoreApi } from 'zustand';

/**
 * Resolves once a store's state meets `done`, checked now and at every change of the store: the
 * test waits for the event itself, not for a clock (the suite's test timeout bounds it), so a
 * loaded machine that answers slowly still passes.
 */
export function untilState<S>(store: Pick<StoreApi<S>, 'getState' | 'subscribe'>, done: (state: S) => boolean): Promise<S> {
  return new Promise((resolve) => {
    if (done(store.getState())) {
      resolve(store.getState());
      return;
    }
    const stop = store.subscribe((state) => {
      if (!done(state)) return;
      stop();
      resolve(state);
    });
  });
}
