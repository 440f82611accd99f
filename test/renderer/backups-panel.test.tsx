// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * Settings > Data > Backups against real local APIs (issue 27 point 8): the last backup's time,
 * size and folder, "Back up now", the schedule and the restore steps; an account without the
 * operator role is told why it may not; a server without a backup folder says backups are off.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createApiClient } from '../../renderer/api/client.js';
import { BackupsPanel, scheduleText } from '../../renderer/components/backups-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import { startServer, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';

const ORIGINS = { CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' };

afterEach(cleanup);

async function renderPanel(server: TestServer, creds: { accountId: string; apiKey: string }): Promise<void> {
  const storage = new MemoryStorage();
  const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage });
  app.connection.setState({ status: 'ready', client: createApiClient({ baseUrl: server.base, ...creds }) });
  await act(async () => render(<StoresProvider stores={app}><BackupsPanel /></StoresProvider>));
}

describe('Settings > Data > Backups', () => {
  const folder = mkdtempSync(join(tmpdir(), 'clindoc-backups-'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ...ORIGINS, CLINDOC_BACKUP_DIR: folder, CLINDOC_BACKUP_INTERVAL_HOURS: '24', CLINDOC_BACKUP_KEEP: '3' });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows the last backup with its size and folder, backs up now, and gives the schedule and the restore steps', async () => {
    // The first automatic backup is written at start; wait for it so the panel has one to show.
    await waitFor(() => expect(readdirSync(folder).filter((f) => f.endsWith('.tar'))).toHaveLength(1), { timeout: 30_000 });
    await renderPanel(server, server.creds);
    await waitFor(() => expect(screen.getByTestId('last-backup').textContent).toMatch(/\d{4}.*, \d+(\.\d)? (kB|MB)$/));
    const first = readdirSync(folder).find((f) => f.endsWith('.tar'))!;
    expect(screen.getByTestId('backup-where').textContent).toBe(`${folder} (file ${first})`);
    expect(screen.getByTestId('backup-schedule').textContent).toMatch(/^Automatic backups run once a day; the newest 3 are kept\. Next: /);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Back up now' })));
    expect((await screen.findByText(/^Backed up at /)).textContent).toMatch(/\d+ notes? and \d+ audio files? of 1 account\.$/);
    const files = readdirSync(folder).filter((f) => f.endsWith('.tar')).sort();
    expect(files).toHaveLength(2);
    await waitFor(() => expect(screen.getByTestId('backup-where').textContent).toBe(`${folder} (file ${files[1]})`));
    expect(screen.getByText('How to restore a backup').closest('details')!.textContent).toContain(`clindoc restore ${folder}/${files[1]} --replace`);
  }, 60_000);

  it('tells an account without the operator role why it sees no backups', async () => {
    const clinician = await server.clindoc.accounts.createAccount('Clinician');
    await renderPanel(server, { accountId: clinician.account.id, apiKey: clinician.apiKey });
    expect((await screen.findByTestId('backup-forbidden')).textContent).toMatch(/made for the whole installation by its operator; this account may not see or start them/);
    expect(screen.queryByRole('button', { name: 'Back up now' })).toBeNull();
  });

  it('says in words how often backups run', () => {
    const base = { folderConfigured: true, keep: 7, nextAt: null, folder: '/b' };
    expect(scheduleText({ ...base, intervalHours: 6 })).toBe('Automatic backups run every 6 hours; the newest 7 are kept.');
    expect(scheduleText({ ...base, intervalHours: 48 })).toBe('Automatic backups run every 2 days; the newest 7 are kept.');
    expect(scheduleText({ ...base, intervalHours: 0 })).toMatch(/^Automatic backups are off \(CLINDOC_BACKUP_INTERVAL_HOURS=0\)/);
  });
});

describe('Settings > Data > Backups without a backup folder', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(ORIGINS);
  });
  afterAll(async () => server?.close());

  it('says backups are off and how to turn them on; Back up now is disabled', async () => {
    await renderPanel(server, server.creds);
    await waitFor(() => expect(screen.getByTestId('last-backup').textContent).toBe('None: backups are off'));
    expect(screen.getByTestId('backup-where').textContent).toBe('No backup folder is set');
    expect(screen.getByText(/To turn backups on, start Clindoc with/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Back up now' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
