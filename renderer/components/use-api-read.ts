import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { useConnection } from '../state/stores.js';

/**
 * What a Settings panel shows from the local API: `read` runs when the panel opens (and when the
 * connection changes) and again at `refresh()`; a failed read goes to `failed`, so each panel says
 * in its own words what could not be read. `client` is undefined while not connected.
 */
export function useApiRead<T>(read: (client: ApiClient) => Promise<T>, failed: (err: unknown) => void): {
  client: ApiClient | undefined; value: T | undefined; refresh(): Promise<void>;
} {
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const [value, setValue] = useState<T>();
  // The latest callbacks, so a panel may pass inline functions without re-reading at every render.
  const calls = useRef({ read, failed });
  calls.current = { read, failed };
  const refresh = useCallback(async () => {
    if (!client) return;
    try {
      setValue(await calls.current.read(client));
    } catch (err) {
      calls.current.failed(err);
    }
  }, [client]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return { client, value, refresh };
}
