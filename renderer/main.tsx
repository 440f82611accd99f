import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { DesktopBridge } from './api/connection.js';
import { App } from './app.js';
import { createAppStores, StoresProvider } from './state/stores.js';
import { keychainStorage } from './api/clinic-server.js';
import './styles.css';

const bridge = (window as unknown as { clindoc?: DesktopBridge }).clindoc;

/** In the desktop app the clinic server's API key is kept by the OS keychain (bridge); in a browser, localStorage. */
const connectionStorage = bridge?.clinicServer
  ? keychainStorage(bridge.clinicServer, window.localStorage).catch(() => window.localStorage)
  : Promise.resolve(window.localStorage);

void connectionStorage.then((local) => {
  const stores = createAppStores({
    bridge,
    connectionEnv: {
      bridge,
      hash: window.location.hash,
      session: window.sessionStorage,
      local,
      clearHash: () => history.replaceState(null, '', window.location.pathname + window.location.search),
    },
    local: window.localStorage,
  });

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <StoresProvider stores={stores}>
        <App />
      </StoresProvider>
    </StrictMode>,
  );
  // First render mark, read by bench/renderer-bench.ts.
  requestAnimationFrame(() => performance.mark('clindoc:first-render'));
});
