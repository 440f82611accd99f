import { describe, it, expect } from 'vitest';
import { navigationAllowed, permissionAllowed, windowOptions } from '../../main/app/window-options.js';

const APP = 'http://127.0.0.1:8123';

describe('the Electron window follows the security checklist', () => {
  it('isolates and sandboxes the renderer with no Node integration', () => {
    const prefs = windowOptions('/app/preload/index.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/preload/index.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false,
      nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false,
    });
  });

  it('grants only the microphone, and only to the app’s own origin', () => {
    expect(permissionAllowed('media', `${APP}/`, APP, ['audio'])).toBe(true);
    expect(permissionAllowed('media', `${APP}/`, APP, ['audio', 'video'])).toBe(false);
    expect(permissionAllowed('media', `${APP}/`, APP, [])).toBe(false);
    expect(permissionAllowed('geolocation', `${APP}/`, APP)).toBe(false);
    expect(permissionAllowed('notifications', `${APP}/`, APP)).toBe(false);
    expect(permissionAllowed('media', 'https://evil.example/', APP, ['audio'])).toBe(false);
    expect(permissionAllowed('media', 'http://127.0.0.1:9999/', APP, ['audio'])).toBe(false);
    expect(permissionAllowed('media', 'not a url', APP, ['audio'])).toBe(false);
  });

  it('keeps navigation on the app’s origin', () => {
    expect(navigationAllowed(`${APP}/settings`, APP)).toBe(true);
    expect(navigationAllowed('https://example.org/', APP)).toBe(false);
    expect(navigationAllowed('file:///etc/passwd', APP)).toBe(false);
    expect(navigationAllowed('javascript:alert(1)', APP)).toBe(false);
  });
});
