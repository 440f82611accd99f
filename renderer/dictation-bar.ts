import { createApiClient } from './api/client.js';
import { CLINIC_SERVER_KEY, readClinicServer } from './api/clinic-server.js';
import { startCapture } from './audio/capture.js';
import { createStreamClient } from './audio/stream-client.js';
import { createBarSession } from './dictation-bar-session.js';
import { createPrefsStore } from './state/prefs-store.js';
import type { BarView, DictationBarBridge } from '../shared/dictation-bar-bridge.js';
import './dictation-bar.css';

/**
 * The dictation bar page (Electron only): draws what main says (status, partial words, where
 * text goes, messages, text kept after a failure) and runs the microphone session when main says
 * start or stop. Text is set with textContent, never as markup.
 */
const bridge = (window as unknown as { clindocBar?: DictationBarBridge }).clindocBar;
const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const LABEL: Record<BarView['status'], string> = { idle: 'Idle', starting: 'Starting…', listening: 'Listening', stopping: 'Finishing…' };

function draw(view: BarView): void {
  const status = el('status');
  status.textContent = LABEL[view.status];
  status.dataset.status = view.status;
  el('partial').textContent = view.partial;
  el('target').textContent = view.target;
  el('toggle').textContent = view.status === 'idle' ? 'Start' : 'Stop';
  const message = el('message');
  message.hidden = !view.message;
  message.textContent = view.message?.text ?? '';
  message.dataset.kind = view.message?.kind ?? '';
  el('held').hidden = !view.held;
  el<HTMLTextAreaElement>('held-text').value = view.held;
}

if (!bridge) {
  el('target').textContent = 'The dictation bar runs inside the Clindoc desktop app.';
} else {
  const b = bridge;
  const prefs = createPrefsStore(window.localStorage).getState();
  const session = createBarSession({
    async client() {
      // The bar writes where the main window does: the clinic server when one is chosen in Settings.
      // In the desktop app the choice, key included, is kept by the OS keychain (shared/bridge.ts).
      // (The main window moves an entry an earlier version left in localStorage there at its start.)
      const sealed = (await b.clinicServer?.load().catch(() => null)) ?? null;
      const clinic = readClinicServer({ getItem: (key) => (key === CLINIC_SERVER_KEY ? sealed ?? window.localStorage.getItem(key) : null) });
      if (clinic) return createApiClient({ ...clinic, clinic: true });
      const c = await b.connection();
      return c.accountId && c.apiKey ? createApiClient({ baseUrl: c.baseUrl, accountId: c.accountId, apiKey: c.apiKey }) : undefined;
    },
    startCapture,
    createStream: createStreamClient,
    prefs: () => ({ language: prefs.language, formatting: prefs.formatting }),
    report: (event) => b.report(event),
  });
  b.onCommand((command) => {
    if (command.type === 'start') void session.start();
    else if (command.type === 'stop') void session.stop();
    else draw(command.view);
  });
  el('toggle').addEventListener('click', () => b.report({ type: 'toggle' }));
  el('copy').addEventListener('click', () => b.report({ type: 'copy-held' }));
  el('dismiss').addEventListener('click', () => b.report({ type: 'dismiss' }));
}
