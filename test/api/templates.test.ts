import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';

const text = (id: string) => ({ id, type: 'text', prompt: 'Summarise', properties: {} });
const heading = (id: string, children: unknown[], level = 1) => ({ id, type: 'heading', properties: { level, text: id }, children });
const template = (sections: unknown[], id = 'tpl') => ({ id, title: 'Visit', sections });

describe('note templates', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${s.base}${path}`, { method, headers: s.headers(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it('stores, reads, replaces, lists and deletes a template', async () => {
    const t = template([heading('subjective', [text('hpi'), { id: 'meds', type: 'list', prompt: 'Medications', properties: { list_type: 'bullet' } }])], 'visit');
    const created = await call('POST', '/v1/note-templates', t);
    expect(created.status).toBe(201);
    expect((await created.json()).data).toEqual(t);
    expect((await call('POST', '/v1/note-templates', t)).status).toBe(409);
    expect((await (await call('GET', '/v1/note-templates/visit')).json()).data.title).toBe('Visit');
    const replaced = await call('PUT', '/v1/note-templates/visit', { ...t, title: 'Follow-up visit' });
    expect(replaced.status).toBe(200);
    expect((await (await call('GET', '/v1/note-templates')).json()).data.items[0].title).toBe('Follow-up visit');
    expect((await call('DELETE', '/v1/note-templates/visit')).status).toBe(200);
    expect((await call('GET', '/v1/note-templates/visit')).status).toBe(404);
  });

  it.each([
    ['heading depth 3', template([heading('a', [heading('b', [heading('c', [])])])]), /depth/],
    ['level 7', template([heading('a', [], 7)]), /level/],
    ['duplicate ids', template([text('x'), text('x')]), /duplicate/],
    ['list without list_type', template([{ id: 'l', type: 'list', prompt: 'p', properties: {} }]), /list_type/],
    ['unknown section type', template([{ id: 'z', type: 'table', prompt: 'p', properties: {} }]), /type|must/],
    ['bad detail level', template([{ ...text('t'), properties: { detail_level: 'huge' } }]), /detail_level|allowed/],
    ['missing title', { id: 'x', sections: [] }, /title/],
  ])('rejects %s with 400', async (_name, body, message) => {
    const res = await call('POST', '/v1/note-templates', body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(message);
  });

  it('writes a note from an inline NoteTemplate and from a stored one', async () => {
    const t = template([heading('Assessment', [text('assessment')]), { id: 'plan', type: 'list', prompt: 'Plan items', properties: { list_type: 'numeric' } }], 'ap');
    await call('POST', '/v1/note-templates', t);
    for (const noteType of [{ type: 'note_template', noteTemplate: t }, { type: 'note_template', templateId: 'ap' }]) {
      const res = await call('POST', '/v1/notes', { transcript: '[doctor] your knee pain is from osteoarthritis. take ibuprofen as needed.', noteType });
      expect(res.status).toBe(202);
      const id = (await res.json()).data.noteId;
      const note = await waitFor(async () => {
        const body = await (await call('GET', `/v1/notes/${id}`)).json();
        return body.data.status === 'STATUS_DONE' || body.data.status === 'STATUS_FAILED' ? body.data : undefined;
      });
      expect(note.status).toBe('STATUS_DONE');
      expect(note.payload.markdown).toMatch(/Assessment/);
    }
  });
});
