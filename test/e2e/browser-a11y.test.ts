/**
 * Accessibility and settings end to end in Debian's Chromium: every page is reached and walked
 * with the keyboard alone, every interactive element in Chromium's accessibility tree has a name,
 * axe-core finds nothing serious or critical on any page, and Settings shows the account's storage size and deletes all data after confirmation.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, seriousAxeFindings, shot, speechRecording } from './harness.js';

const missing = missingTools();
const PAGES = ['Dictation', 'Note', 'Macros', 'Templates', 'Settings'];
const INTERACTIVE = new Set(['button', 'link', 'textbox', 'combobox', 'checkbox', 'spinbutton', 'slider', 'radio', 'switch', 'searchbox', 'listbox', 'menuitem', 'tab', 'meter']);

interface AXNode { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number }

describe.skipIf(missing.length > 0)('Clindoc accessibility and settings in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-a11y-'));
    const mic = speechRecording(work, 'mic', [{ text: 'Normal physical exam.' }]);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    ({ browser, page } = await openApp(server, mic));
    // Something in every list, so tables and their row buttons are on the pages being checked.
    await fetch(`${server.base}/v1/macro-library`, { method: 'POST', headers: server.headers(), body: JSON.stringify({ id: 'exam', examples: ['physical exam'], expansion_text: 'Alert, lungs clear.' }) });
    await fetch(`${server.base}/v1/note-templates`, {
      method: 'POST', headers: server.headers(),
      body: JSON.stringify({ id: 'short', title: 'Short note', sections: [{ id: 'p', type: 'list', prompt: 'Plan', properties: { list_type: 'bullet' } }] }),
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each(PAGES)('%s: reached by keyboard, every control named and reachable with Tab', async (name) => {
    await page.keyboard.press('Escape');
    await page.locator('body').focus();
    await page.getByRole('button', { name, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    if (name === 'Templates') {
      // Open a template so the editor's controls are checked too.
      await page.getByRole('button', { name: 'Short note', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('form', { name: 'Template editor' }).waitFor();
    }

    const unnamed = await unnamedControls(page);
    expect(unnamed, `controls without an accessible name on ${name}`).toEqual([]);
    expect(await seriousAxeFindings(page), `axe-core serious or critical findings on ${name}`).toEqual([]);

    const { total, missed } = await tabWalk(page);
    expect(total).toBeGreaterThan(3);
    expect(missed, `controls on ${name} that Tab never reaches`).toEqual([]);
  }, 60_000);

  it('Settings shows the storage size and deletes all data after typed confirmation, from the keyboard', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const total = page.getByTestId('storage-total');
    await expect.poll(() => total.textContent()).toMatch(/^\d+(\.\d)? (B|kB|MB)$/);
    expect(await total.textContent()).not.toBe('0 B');
    expect(await page.getByText(/1 macro, 1 template/).count()).toBe(1);
    await shot(page, '12-settings.png');

    await page.getByRole('button', { name: 'Delete all data…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete all data?' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete everything' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').pressSequentially('DELETE');
    await shot(page, '13-delete-dialog.png');
    await page.keyboard.press('Enter');
    await page.getByText('Deleted 0 notes, 0 transcriptions, 1 macro, 1 template, 0 webhooks.').waitFor();
    await expect.poll(() => total.textContent()).toBe('0 B');
    const usage = (await (await fetch(`${server.base}/v1/storage`, { headers: server.headers() })).json()).data as { totalBytes: number };
    expect(usage.totalBytes).toBe(0);
  }, 30_000);

  it('Settings changes the account\'s recogniser for dictation and recordings through the local API', async () => {
    const select = page.getByRole('combobox', { name: /^Recogniser for dictation and recordings/ });
    await select.selectOption('pocketsphinx');
    await page.getByText('Saved: from the next one, dictation and recordings use Embedded (pocketsphinx).').waitFor();

    const settings = (await (await fetch(`${server.base}/v1/settings/engines`, { headers: server.headers() })).json()).data as { source: string };
    expect(settings.source).toBe('account');
  }, 30_000);
});

/** Interactive nodes of Chromium's accessibility tree that have no name, described for the failure message. */
async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const bad = nodes.filter((n) => !n.ignored && INTERACTIVE.has(n.role?.value ?? '') && !(n.name?.value ?? '').trim());
    const out: string[] = [];
    for (const n of bad) {
      const { node } = (await cdp.send('DOM.describeNode', { backendNodeId: n.backendDOMNodeId! })) as { node: { localName: string; attributes?: string[] } };
      out.push(`${n.role!.value} <${node.localName} ${(node.attributes ?? []).join(' ')}>`);
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

/**
 * Presses Tab from the top of the page until focus comes back round, and returns the visible,
 * enabled controls it never reached (none, when everything works from the keyboard).
 */
async function tabWalk(page: Page): Promise<{ total: number; missed: string[] }> {
  const total = await page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
      // checkVisibility also leaves out the contents of closed <details> and <dialog>, which Tab rightly skips.
      .filter((el) => !(el as HTMLButtonElement).disabled && el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }));
    document.querySelectorAll('[data-tab-id]').forEach((el) => el.removeAttribute('data-tab-id'));
    controls.forEach((el, i) => el.setAttribute('data-tab-id', String(i)));
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  const seen = new Set<string>();
  for (let i = 0; i < total * 2 + 10; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.getAttribute('data-tab-id') ?? null);
    if (id !== null) {
      if (seen.has(id) && seen.size >= total) break;
      seen.add(id);
    }
  }
  const missed = await page.evaluate((reached) => [...document.querySelectorAll<HTMLElement>('[data-tab-id]')]
    .filter((el) => !reached.includes(el.getAttribute('data-tab-id')!))
    .map((el) => `${el.localName}#${el.id} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`), [...seen]);
  return { total, missed };
}
