/**
 * The template editor's state: common sections added with one click (valid as the API
 * validates, ids never clashing), sections moved by dragging, a template id from its title, and
 * a preview written by the real local API and deleted again.
 */
import { untilState } from '../support/store-wait.js';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import {
  addLibrarySection, blankTemplate, idFromTitle, moveSectionTo, sameParent, SECTION_LIBRARY, sectionName,
} from '../../renderer/state/template-edit.js';
import { createTemplatePreview, SAMPLE_TRANSCRIPT } from '../../renderer/state/template-preview.js';
import { validateTemplate } from '../../renderer/state/template-validate.js';
import type { NoteTemplate } from '../../shared/note-template.js';

const titles = (t: NoteTemplate): string[] => t.sections.map((s) => sectionName(s));

describe('template editing', () => {
  it('adds every common section with one click, each a heading over its text or list, and the result is valid', () => {
    let t: NoteTemplate = { id: 'full', title: 'Full', sections: [] };
    for (const item of SECTION_LIBRARY) t = addLibrarySection(t, item.key);
    expect(validateTemplate(t)).toEqual([]);
    expect(titles(t)).toEqual(SECTION_LIBRARY.map((i) => i.title));
    expect(titles(t)).toEqual(expect.arrayContaining(['History of present illness', 'Review of systems', 'Physical examination', 'Assessment and plan', 'Medications', 'Allergies', 'Plan', 'Follow-up']));
    const plan = t.sections.find((s) => sectionName(s) === 'Plan')!;
    expect(plan.type === 'heading' && plan.children[0]).toMatchObject({ type: 'list', properties: { list_type: 'numeric' } });
  });

  it('adds the same section twice without clashing ids', () => {
    const t = addLibrarySection(addLibrarySection(blankTemplate(), 'plan'), 'plan');
    expect(validateTemplate(t)).toEqual([]);
    expect(titles(t)).toEqual(['History of present illness', 'Plan', 'Plan', 'Plan']);
  });

  it('adds a common section where a note has it (before Plan), stepping over the physician\'s own sections', () => {
    let t = blankTemplate();
    t = addLibrarySection(addLibrarySection(t, 'allergies'), 'medications');
    expect(titles(t)).toEqual(['History of present illness', 'Medications', 'Allergies', 'Plan']);
    t = addLibrarySection(addLibrarySection(t, 'follow-up'), 'chief-complaint');
    expect(titles(t)).toEqual(['Chief complaint', 'History of present illness', 'Medications', 'Allergies', 'Plan', 'Follow-up']);
    const own = { ...t, sections: [...t.sections.slice(0, 4), { id: 'work-note', type: 'text' as const, prompt: 'Whether the patient may work', properties: { label: 'Fitness for work' } }, ...t.sections.slice(4)] };
    expect(titles(addLibrarySection(own, 'exam'))).toEqual(['Chief complaint', 'History of present illness', 'Medications', 'Allergies', 'Fitness for work', 'Physical examination', 'Plan', 'Follow-up']);
  });

  it('moves a dragged section to where it was dropped among its siblings', () => {
    let t = blankTemplate();
    t = addLibrarySection(addLibrarySection(t, 'allergies'), 'medications');
    expect(titles(t)).toEqual(['History of present illness', 'Medications', 'Allergies', 'Plan']);
    t = moveSectionTo(t, [3], 0);
    expect(titles(t)).toEqual(['Plan', 'History of present illness', 'Medications', 'Allergies']);
    t = moveSectionTo(t, [0], 2);
    expect(titles(t)).toEqual(['History of present illness', 'Medications', 'Plan', 'Allergies']);
    expect(sameParent([0, 1], [0, 0])).toBe(true);
    expect(sameParent([0, 1], [1])).toBe(false);
  });

  it('names sections as a physician would and makes a template id from the title', () => {
    const t = blankTemplate();
    const hpi = t.sections[0]!;
    expect(hpi.type === 'heading' && sectionName(hpi.children[0]!, sectionName(hpi))).toBe('History of present illness paragraph');
    expect(idFromTitle('Urgent care visit – Dr. Müller')).toBe('urgent-care-visit-dr-muller');
    expect(idFromTitle('!!!')).toBe('my-template');
  });
});

describe('template preview against the local API', () => {
  let server: TestServer;
  let client: ApiClient;
  beforeAll(async () => {
    server = await startServer();
    client = createApiClient({ baseUrl: server.base, ...server.creds });
  });
  afterAll(async () => server?.close());

  it('writes a note with the edited template after the edits pause, keeps only the last request, and leaves no note behind', async () => {
    const preview = createTemplatePreview({ client: () => client, debounceMs: 50, pollMs: 20 });
    const before = (await client.listNotes()).items.length;
    const first = addLibrarySection({ id: 'p', title: 'P', sections: [] }, 'hpi');
    preview.getState().request(first, SAMPLE_TRANSCRIPT);
    const second = addLibrarySection(first, 'allergies');
    preview.getState().request(second, SAMPLE_TRANSCRIPT);
    expect(preview.getState().status).toBe('waiting');
    await untilState(preview, (s) => ['done', 'failed'].includes(s.status));
    expect(preview.getState().error).toBeUndefined();
    const md = preview.getState().markdown;
    expect(md).toMatch(/History of present illness/);
    expect(md).toMatch(/Allergies/);
    expect(md.toLowerCase()).toContain('penicillin');
    await expect.poll(async () => (await client.listNotes()).items.length).toBe(before);
  });
});
