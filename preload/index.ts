import { contextBridge, ipcRenderer } from 'electron';

/**
 * The renderer's one narrow door into main: where the local API is and how to authenticate,
 * saving an exported file, the app version and opening the data folder. Nothing else crosses.
 */
const bridge = {
  connection: (): Promise<{ baseUrl: string; accountId: string | null; apiKey: string | null }> => ipcRenderer.invoke('clindoc:connection'),
  saveFile: (defaultName: string, content: string | Uint8Array): Promise<{ saved: boolean }> =>
    ipcRenderer.invoke('clindoc:save-file', { defaultName, content }),
  version: (): Promise<string> => ipcRenderer.invoke('clindoc:version'),
  openDataFolder: (): Promise<string> => ipcRenderer.invoke('clindoc:open-data-folder'),
};

export type ClindocBridge = typeof bridge;

contextBridge.exposeInMainWorld('clindoc', bridge);
