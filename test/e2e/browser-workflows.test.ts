/**
 * End to end in Debian's Chromium against the real local API: the paths a physician takes beyond
 * live dictation. Record a whole encounter from the (fake) microphone and have it transcribed
 * with speakers separated, then write a note from it; build the macro library (create, edit,
 * export and import JSON); build a NoteTemplate in the editor, see the API's own validation
 * errors, and write a note with it; make a note style from a sample note; copy a note to the
 * clipboard. Screenshots go to test-results/e2e.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { durationOf, ensureRendererBuild, missingTools, openApp, OUT, RENDERER, shot, speechRecording } from './harness.js';

const missing = missingTools();

// Two speakers in two different voices, so diarization has something real to separate.
const ENCOUNTER = [
  { text: 'Good morning. What brings you in today?', voice: 'en-us+m3' },
  { text: 'I have had a fever and a sore throat for three days.', voice: 'en-us+f4' },
  { text: 'Any cough? Let me look at your throat.', voice: 'en-us+m3' },
  { text: 'Yes, a dry cough at night.', voice: 'en-us+f4' },
];

const SAMPLE_NOTE = `Reason for visit: cough for one week.

History: dry cough, worse at night, no fever.

Exam: lungs clear, no wheeze.

Plan: honey and fluids, return if not better in two weeks.`;

describe.skipIf(missing.length > 0)('Clindoc workflows in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;
  let encounterSeconds = 0;

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-flows-'));
    const mic = speechRecording(work, 'encounter', ENCOUNTER, 3);
    encounterSeconds = durationOf(mic);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    ({ browser, page } = await openApp(server, mic));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('records a whole encounter, transcribes it with speakers separated, and writes a note from it', async () => {
    await page.getByRole('button', { name: 'Note', exact: true }).click();
    await page.getByRole('button', { name: 'Record encounter' }).click();
    // The recording clock runs while the fake microphone plays the dialogue once through.
    const clock = page.getByRole('timer', { name: 'Recording time' });
    await clock.waitFor({ timeout: 90_000 });
    const wanted = Math.ceil(encounterSeconds);
    await expect.poll(async () => seconds(await clock.textContent()), { timeout: (wanted + 10) * 1000, interval: 250 }).toBeGreaterThanOrEqual(wanted);
    await shot(page, '5-encounter-recording.png');
    await page.getByRole('button', { name: 'Stop recording and transcribe' }).click();
    await page.getByText('Transcribed.', { exact: false }).waitFor({ timeout: 60_000 });

    const transcript = await page.getByLabel('Transcript', { exact: true }).inputValue();
    expect(transcript.trim().length).toBeGreaterThan(10);
    // The speech engine hears synthetic speech imperfectly; common words of the dialogue come through.
    expect(transcript.toLowerCase()).toMatch(/\b(morning|fever|throat|three|days|cough|night)\b/);
    const listed = await fetch(`${server.base}/v2/audio/transcriptions`, { headers: server.headers() }).then((r) => r.json()) as { data: { items: { status: string; utterances: { speaker: number | null }[] }[] } };
    const record = listed.data.items[0]!;
    expect(record.status).toBe('completed');
    const speakers = new Set(record.utterances.map((u) => u.speaker).filter((s) => s !== null));
    // Two voices, two speakers (issue 27 point 6), labelled with roles guessed from the dialogue.
    expect(speakers.size).toBe(2);
    const labels = (text: string): string[] => text.split('\n').map((l) => l.split(':')[0]!);
    expect(labels(transcript)[0]).toBe('Doctor'); // "Good morning. What brings you in today?"
    expect(new Set(labels(transcript))).toEqual(new Set(['Doctor', 'Patient']));
    // One click swaps the roles on every line; a second puts them back.
    const box = page.getByLabel('Transcript', { exact: true });
    await page.getByRole('button', { name: 'Swap speakers' }).click();
    expect(labels(await box.inputValue())).toEqual(labels(transcript).map((l) => (l === 'Doctor' ? 'Patient' : 'Doctor')));
    await page.getByRole('button', { name: 'Swap speakers' }).click();
    expect(await box.inputValue()).toBe(transcript);

    await page.getByRole('button', { name: 'Generate note' }).click();
    const note = page.getByRole('article', { name: 'Generated note' });
    await note.waitFor({ timeout: 60_000 });
    expect((await note.textContent())?.trim().length).toBeGreaterThan(20);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '6-encounter-note.png');
  }, 150_000);

  it('copies the note to the clipboard as plain text', async () => {
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await page.getByText('Copy done.').waitFor({ timeout: 90_000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const words = (t: string): string => t.replace(/\s+/g, ' ').trim().toLowerCase();
    const shown = await page.getByRole('article', { name: 'Generated note' }).innerText();
    expect(copied).not.toMatch(/^#|\*\*/m); // plain text: no markdown syntax
    // Plain text writes headings in capitals; the words on screen are all there, inside the attestation
    // (patient, status, PRELIMINARY on a draft: test/renderer/export-attestation.test.ts).
    const unbullet = (t: string): string => t.replace(/^\s*(?:[-*]|\d+\.)\s+/gm, '');
    expect(words(unbullet(copied))).toContain(words(shown));
    expect(copied).toMatch(/^Status: PRELIMINARY: not signed$/m);
  }, 30_000);

  it('creates, edits, exports and imports macros as JSON', async () => {
    await page.getByRole('button', { name: 'Macros', exact: true }).click();
    await page.getByLabel('Macro id').fill('neg-ros');
    await page.getByLabel('Spoken forms (one per line)').fill('negative review of systems\nros negative');
    await page.getByLabel('Expansion text').fill('Review of systems negative.');
    await page.getByRole('button', { name: 'Add macro' }).click();
    await page.getByRole('cell', { name: 'Review of systems negative.', exact: true }).waitFor({ timeout: 90_000 });

    await page.getByRole('button', { name: 'Edit macro neg-ros' }).click();
    await expect.poll(() => page.getByLabel('Macro id').isDisabled()).toBe(true);
    await page.getByLabel('Expansion text').fill('Review of systems: negative except as noted in the history.');
    await page.getByRole('button', { name: 'Save macro' }).click();
    await page.getByRole('cell', { name: 'Review of systems: negative except as noted in the history.' }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('cell', { name: 'Review of systems negative.', exact: true }).count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export macros (JSON)' }).click()]);
    const exported = join(OUT, 'macros.json');
    await download.saveAs(exported);
    const file = JSON.parse(readFileSync(exported, 'utf8')) as { macros: { id: string; examples: string[]; expansion_text: string }[] };
    expect(file.macros).toEqual([{ id: 'neg-ros', examples: ['negative review of systems', 'ros negative'], expansion_text: 'Review of systems: negative except as noted in the history.' }]);

    // Import: one macro replaces the existing id, one is new.
    const incoming = join(work, 'import.json');
    writeFileSync(incoming, JSON.stringify({ macros: [
      { ...file.macros[0], expansion_text: 'ROS negative.' },
      { id: 'wound', examples: ['wound clean'], expansion_text: 'Wound clean and dry, no signs of infection.' },
    ] }));
    await page.getByLabel('Import macros (JSON)').setInputFiles(incoming);
    await page.getByText('Imported 1 new and 1 updated macros.').waitFor({ timeout: 90_000 });
    await page.getByRole('cell', { name: 'Wound clean and dry, no signs of infection.' }).waitFor();
    await page.getByRole('cell', { name: 'ROS negative.', exact: true }).waitFor();

    // A broken file is refused with a reason and changes nothing.
    writeFileSync(incoming, JSON.stringify([{ id: 'x', examples: [], expansion_text: 'y' }]));
    await page.getByLabel('Import macros (JSON)').setInputFiles(incoming);
    await page.getByRole('alert').filter({ hasText: 'Import failed' }).waitFor();
    expect(await page.getByText('Imported 1 new and 1 updated macros.').count()).toBe(0);
    expect(await page.getByRole('row').count()).toBe(3); // header + 2 macros
    await shot(page, '7-macro-library.png');
  }, 60_000);

  it('builds a NoteTemplate, shows the same errors as the API, and writes a note with it', async () => {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('button', { name: 'New template' }).click();
    const editor = page.getByRole('form', { name: 'Template editor' });
    await editor.getByLabel('Title', { exact: true }).fill('Urgent care visit');
    // The id follows the title until it is set under "More options".
    await editor.locator('details.advanced').first().locator('summary').click();
    expect(await editor.getByLabel('Template id (for integrations)').inputValue()).toBe('urgent-care-visit');
    await editor.getByLabel('Template id (for integrations)').fill('urgent-care');
    // A new template starts from an example; replace its sections with our own.
    await editor.getByRole('button', { name: 'Remove History of present illness', exact: true }).click();
    await editor.getByRole('button', { name: 'Remove Plan', exact: true }).click();
    await editor.getByRole('button', { name: 'Add heading', exact: true }).click();
    await editor.getByLabel('Heading', { exact: true }).fill('Assessment');
    await editor.getByRole('button', { name: 'Add a paragraph under Assessment' }).click();
    await editor.getByRole('button', { name: 'Add a list under Assessment' }).click();

    const text = editor.getByRole('group', { name: /^Paragraph/ });
    await text.getByText('More options').click();
    // Typed key by key: the field must keep focus while its section is renamed.
    await text.getByLabel('Section id (for integrations)').fill('');
    await text.getByLabel('Section id (for integrations)').pressSequentially('summary');
    expect(await text.getByLabel('Section id (for integrations)').inputValue()).toBe('summary');
    await text.getByLabel('What to write').fill('Summarise the presenting complaint and findings.');
    await text.getByLabel('How much detail').selectOption('brief');
    await text.getByLabel('Tone').selectOption('formal');
    await text.getByLabel('Most sentences').fill('3');
    await text.getByLabel('Text when there is nothing to say').fill('No findings recorded.');
    await text.getByLabel('Leave out when there is nothing to say').check();
    const list = editor.getByRole('group', { name: /^List/ });
    await list.getByText('More options').click();
    await list.getByLabel('Section id (for integrations)').fill('plan');
    await list.getByLabel('What to write').fill('List the treatment plan.');
    await list.getByLabel('Most items').fill('4');

    // Invalid: more minimum sentences than maximum. The editor says what the API would say.
    await text.getByLabel('Fewest sentences').fill('5');
    const problem = editor.getByRole('alert').filter({ hasText: 'Not valid yet' });
    await problem.waitFor();
    const invalid = {
      id: 'urgent-care', title: 'Urgent care visit',
      sections: [{ id: 'heading-1', type: 'heading', properties: { level: 2, text: 'Assessment' }, children: [
        { id: 'summary', type: 'text', prompt: 'Summarise the presenting complaint and findings.', properties: { detail_level: 'brief', tone: 'formal', max_sentences: 3, min_sentences: 5, emptyPlaceholder: 'No findings recorded.', hideIfEmpty: true } },
        { id: 'plan', type: 'list', prompt: 'List the treatment plan.', properties: { list_type: 'bullet', max_items: 4 } },
      ] }],
    };
    expect(await problem.textContent()).toContain(await apiError(server, invalid));
    expect(await editor.getByRole('button', { name: 'Save template' }).isDisabled()).toBe(true);
    await shot(page, '8-template-invalid.png');

    // Invalid: an empty title (a JSON Schema problem rather than a semantic one).
    await text.getByLabel('Fewest sentences').fill('1');
    await editor.getByLabel('Title', { exact: true }).fill('');
    expect(await problem.textContent()).toContain(await apiError(server, { ...invalid, title: '' }));
    await editor.getByLabel('Title', { exact: true }).fill('Urgent care visit');
    await problem.waitFor({ state: 'detached' });

    await editor.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Saved template “Urgent care visit”.').waitFor();
    const stored = await fetch(`${server.base}/v1/note-templates/urgent-care`, { headers: server.headers() }).then((r) => r.json()) as { data?: unknown };
    expect(JSON.stringify(stored)).toContain('"min_sentences":1');
    await shot(page, '9-template-saved.png');

    await page.getByRole('button', { name: 'Note', exact: true }).click();
    await page.getByLabel('Transcript', { exact: true }).fill('Patient: sore throat and fever for three days. Doctor: throat red, tonsils swollen. Plan: paracetamol and fluids, review in a week.');
    await page.getByLabel('Note type').selectOption('note_template');
    await page.getByRole('combobox', { name: /^Template/ }).selectOption({ label: 'Urgent care visit' });
    await page.getByRole('button', { name: /^(Generate|Regenerate) note$/ }).click();
    const note = page.getByRole('article', { name: 'Generated note' });
    await note.getByRole('heading', { name: 'Assessment' }).waitFor({ timeout: 60_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '10-template-note.png');
  }, 90_000);

  it('makes a note style from a sample note and writes a note in that style', async () => {
    await page.getByText('Make a note style from a sample note').click();
    await page.getByLabel('Style name').fill('Brief clinic letter');
    await page.getByLabel('Sample note').fill(SAMPLE_NOTE);
    await page.getByRole('button', { name: 'Create style' }).click();
    await page.getByRole('list', { name: 'Saved styles' }).getByText('Brief clinic letter').waitFor({ timeout: 90_000 });
    expect(await page.getByLabel('Note type').inputValue()).toBe('note_style');
    const instructions = await page.getByLabel('Style instructions').inputValue();
    expect(instructions).toMatch(/Reason for visit/i);
    await page.getByRole('button', { name: /^(Generate|Regenerate) note$/ }).click();
    await expect.poll(async () => (await page.getByRole('article', { name: 'Generated note' }).textContent()) ?? '', { timeout: 60_000 }).toMatch(/Reason for visit/i);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '11-style-note.png');
  }, 90_000);
});

/** "0:07" -> 7. */
function seconds(clock: string | null): number {
  const m = /(\d+):(\d{2})/.exec(clock ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
}

/** The message the API gives when asked to store this template (it must refuse it). */
async function apiError(server: TestServer, template: unknown): Promise<string> {
  const res = await fetch(`${server.base}/v1/note-templates`, { method: 'POST', headers: server.headers(), body: JSON.stringify(template) });
  expect(res.status).toBe(400);
  return ((await res.json()) as { message: string }).message;
}
