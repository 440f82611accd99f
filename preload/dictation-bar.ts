import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BarCommand, DictationBarBridge } from '../shared/dictation-bar-bridge.js';

/**
 * The dictation bar's one narrow door into main (a preload of its own, so the main window's
 * bridge stays as small as it was): the local API's address and credentials, commands from main
 * (start, stop, what to show) and the bar's events back. The shapes are in
 * shared/dictation-bar-bridge.ts; main checks every event it receives.
 */
const bridge: DictationBarBridge = {
  connection: () => ipcRenderer.invoke('clindoc:connection'),
  clinicServer: { load: () => ipcRenderer.invoke('clindoc:clinic-server-load') },
  onCommand(listener) {
    const handler = (_event: IpcRendererEvent, command: BarCommand): void => listener(command);
    ipcRenderer.on('clindoc:bar-command', handler);
    return () => void ipcRenderer.removeListener('clindoc:bar-command', handler);
  },
  report: (event) => ipcRenderer.send('clindoc:bar-event', event),
};

contextBridge.exposeInMainWorld('clindocBar', bridge);
