import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { DesktopBridge } from './api/connection.js';
import { App } from './app.js';
import { createAppStores, StoresProvider } from './state/stores.js';
import './styles.css';

const bridge = (window as unknown as { clindoc?: DesktopBridge }).clindoc;
const stores = createAppStores({
  bridge,
  connectionEnv: {
    bridge,
    hash: window.location.hash,
    session: window.sessionStorage,
    local: window.localStorage,
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
