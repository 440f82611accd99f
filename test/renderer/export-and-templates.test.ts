import { describe, it, expect } from 'vitest';
import { validateNoteTemplate } from '../../main/services/templates/template-service.js';
import { r4Validator } from '../support/fhir-r4.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildDocumentReference, documentText } from '../../shared/export/fhir-document-reference.js';
import { markdownToPlainText, parseMarkdown } from '../../shared/export/markdown.js';
import { noteToPdf } from '../../shared/export/pdf.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';
import { templateProblems, type NoteTemplate } from '../../shared/note-template.js';
import { validateTemplate } from '../../renderer/state/template-validate.js';
import { addSection, blankTemplate, moveSection, removeSection } from '../../renderer/state/template-edit.js';

const NOTE = `## Subjective\nSore throat for **3 days**, fever 38.5 °C.\n\n## Plan\n1. Paracetamol 1 g\n2. Fluids\n- Return if *worse*\n`;

describe('FHIR R4 DocumentReference export', () => {
  const validate = r4Validator();

  it('validates against the official R4 JSON schema with the note, patient and encounter date', () => {
    const doc = buildDocumentReference({ markdown: NOTE, noteId: 'note_1', title: 'Clinical note', language: 'en', patient: { name: 'Ana Test', dateOfBirth: '1980-02-03' }, encounterDate: '2026-11-20' });
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const attachment = doc.content[0]!.attachment;
    expect(Buffer.from(attachment.data!, 'base64').toString('utf8')).toBe(NOTE);
    expect(attachment.size).toBe(Buffer.byteLength(NOTE));
    expect(doc.contained?.[0]).toMatchObject({ resourceType: 'Patient', birthDate: '1980-02-03' });
    expect(doc.subject?.reference).toBe('#patient');
    expect(doc.context?.period?.start).toBe('2026-11-20');
  });

  it('says preliminary for a draft, final when signed (with the signer), amended with the addenda in the text', () => {
    const draft = buildDocumentReference({ markdown: NOTE });
    expect(draft.docStatus).toBe('preliminary');
    expect(draft.authenticator).toBeUndefined();
    const signed = buildDocumentReference({ markdown: NOTE, signature: { status: 'signed', signedBy: 'Dr. Ana Lopez', signedAt: 0 } });
    expect(signed.docStatus).toBe('final');
    expect(signed.authenticator).toEqual({ display: 'Dr. Ana Lopez' });
    const amended = buildDocumentReference({
      markdown: NOTE, signature: { status: 'amended', signedBy: 'Dr. Ana Lopez', signedAt: 0 },
      addenda: [{ text: 'Culture negative.', author: 'Dr. B', createdAt: Date.UTC(2026, 10, 21, 9, 30) }],
    });
    expect(amended.docStatus).toBe('amended');
    const text = Buffer.from(amended.content[0]!.attachment.data!, 'base64').toString('utf8');
    // The FHIR document's text is made with the computer's zone; the same call with a zone named gives the physician's time.
    expect(text).toBe(documentText({ markdown: NOTE, addenda: [{ text: 'Culture negative.', author: 'Dr. B', createdAt: Date.UTC(2026, 10, 21, 9, 30) }] }));
    expect(documentText({ markdown: NOTE, addenda: [{ text: 'Culture negative.', author: 'Dr. B', createdAt: Date.UTC(2026, 10, 21, 9, 30) }] }, 'Europe/Berlin'))
      .toBe(`${NOTE.trimEnd()}\n\n## Addendum, 2026-11-21 10:30 GMT+1\n\nCulture negative.\n\n*Addendum electronically signed by Dr. B on 2026-11-21 10:30 GMT+1*\n`);
    expect(amended.content[0]!.attachment.size).toBe(Buffer.byteLength(text));
    for (const doc of [draft, signed, amended]) expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('stays valid without patient or date, and the schema rejects a broken document', () => {
    const doc = buildDocumentReference({ markdown: 'Plain note' });
    expect(validate(doc)).toBe(true);
    expect(doc.subject).toBeUndefined();
    expect(validate({ ...doc, status: 'finished' })).toBe(false);
  });
});

describe('plain text and PDF export', () => {
  it('drops markdown marks but keeps headings, numbering and bullets', () => {
    expect(markdownToPlainText(NOTE)).toBe('SUBJECTIVE\n\nSore throat for 3 days, fever 38.5 °C.\n\nPLAN\n\n1. Paracetamol 1 g\n2. Fluids\n\n- Return if worse\n');
  });

  it('reads markdown into a tree, so no HTML inside a note is ever rendered as markup', () => {
    const blocks = parseMarkdown('<img src=x onerror=alert(1)> **bold**');
    expect(blocks).toEqual([{ kind: 'paragraph', inlines: [{ kind: 'text', text: '<img src=x onerror=alert(1)> ' }, { kind: 'strong', children: [{ kind: 'text', text: 'bold' }] }] }]);
  });

  it('writes a PDF document', async () => {
    const pdf = await noteToPdf(NOTE, 'Clinical note');
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
  });
});

describe('template editor validation agrees with the API', () => {
  const ajv = new Ajv2020({ strict: false });
  const check = ajv.compile(NOTE_TEMPLATE_SCHEMA);
  const apiAccepts = (t: unknown): boolean => check(t) && templateProblems(t as NoteTemplate).length === 0;
  const base = blankTemplate();
  const cases: [string, unknown][] = [
    ['the starting template', base],
    ['an empty title', { ...base, title: '' }],
    ['a list without list_type', { ...base, sections: [{ id: 'l', type: 'list', prompt: 'x', properties: {} }] }],
    ['a heading level of 7', { ...base, sections: [{ id: 'h', type: 'heading', children: [], properties: { level: 7, text: 'H' } }] }],
    ['headings nested three deep', { ...base, sections: [{ id: 'a', type: 'heading', properties: { level: 1, text: 'A' }, children: [{ id: 'b', type: 'heading', properties: { level: 2, text: 'B' }, children: [{ id: 'c', type: 'heading', properties: { level: 3, text: 'C' }, children: [] }] }] }] }],
    ['a duplicate section id', { ...base, sections: [...base.sections, { id: 'plan', type: 'text', prompt: '', properties: {} }] }],
    ['an unknown tone', { ...base, sections: [{ id: 't', type: 'text', prompt: '', properties: { tone: 'angry' } }] }],
    ['a negative max_items', { ...base, sections: [{ id: 'l', type: 'list', prompt: '', properties: { list_type: 'bullet', max_items: -1 } }] }],
    ['min above max sentences', { ...base, sections: [{ id: 't', type: 'text', prompt: '', properties: { min_sentences: 4, max_sentences: 2 } }] }],
    ['an unknown section type', { ...base, sections: [{ id: 'x', type: 'table', properties: {} }] }],
    ['a missing prompt', { ...base, sections: [{ id: 't', type: 'text', properties: {} }] }],
  ];
  it.each(cases)('%s', (_name, template) => {
    expect(validateTemplate(template).length === 0).toBe(apiAccepts(template));
  });
  // The editor shows the physician the very message the API would answer with.
  it.each(cases.filter(([, t]) => !apiAccepts(t)))('%s: same message as the API', (_name, template) => {
    let message = '';
    try {
      validateNoteTemplate(template);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(validateTemplate(template)[0]).toBe(message);
  });

  it('edits sections without breaking ids, order or nesting', () => {
    let t = addSection(base, [0], 'list');
    expect(validateTemplate(t)).toEqual([]);
    t = moveSection(t, [0, 1], -1);
    const first = t.sections[0]!;
    expect(first.type === 'heading' && first.children[0]!.type).toBe('list');
    t = removeSection(t, [1]);
    expect(t.sections).toHaveLength(1);
  });
});
