import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopBridge } from '../shared/bridge.js';

/**
 * The renderer's one narrow door into main: where the local API is and how to authenticate,
 * saving an exported file, the app version, opening the data folder and the clinic server kept in
 * the OS keychain. Nothing else crosses.
 * The shape is declared in shared/bridge.ts, which the renderer reads too.
 */
const bridge: DesktopBridge = {
  connection: () => ipcRenderer.invoke('clindoc:connection'),
  saveFile: (defaultName, content) => ipcRenderer.invoke('clindoc:save-file', { defaultName, content }),
  version: () => ipcRenderer.invoke('clindoc:version'),
  openDataFolder: () => ipcRenderer.invoke('clindoc:open-data-folder'),
  // The clinic server's key is sealed by main with the OS keychain; the page keeps no copy at rest.
  clinicServer: {
    load: () => ipcRenderer.invoke('clindoc:clinic-server-load'),
    save: (value) => ipcRenderer.invoke('clindoc:clinic-server-save', value),
  },
};

contextBridge.exposeInMainWorld('clindoc', bridge);
