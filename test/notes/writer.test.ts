import { describe, it, expect } from 'vitest';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/index.js';
import type { NoteGenerationInput } from '../../main/services/notes/ports.js';
import type { NoteTemplate } from '../../shared/note-template.js';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import { ENCOUNTER } from './fixtures.js';

const writer = createEmbeddedNoteWriter();
const soap = (extra: Partial<NoteGenerationInput> = {}): Promise<{ markdown: string; json?: Record<string, unknown> }> =>
  writer.write({ transcript: ENCOUNTER, noteType: { type: 'soap' }, language: 'en', ...extra });

function headings(markdown: string): string[] {
  return markdown.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ''));
}

describe('embedded note writer: SOAP', () => {
  it('is named embedded and writes the four SOAP parts in order', async () => {
    expect(writer.name).toBe('embedded');
    const h = headings((await soap()).markdown);
    const order = ['Subjective', 'Objective', 'Assessment', 'Plan'].map((x) => h.indexOf(x));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('documents what was said in clinical third person, with negatives and numbers', async () => {
    const { markdown } = await soap();
    expect(markdown).toMatch(/She reports cough for 3 days/);
    expect(markdown).toMatch(/Denies fever and chills/);
    expect(markdown).toMatch(/shortness of breath/i);
    expect(markdown).toMatch(/120\/80/);
    expect(markdown).toMatch(/98%/);
    expect(markdown).toMatch(/acute bronchitis/i);
    expect(markdown).toMatch(/albuterol inhaler/i);
    expect(markdown).toMatch(/penicillin/i);
    expect(markdown).not.toMatch(/\bhow are you\b/i);
  });

  it('invents no medication, dose or diagnosis that the transcript does not contain', async () => {
    const { markdown } = await soap();
    for (const word of ['lisinopril', 'amoxicillin', 'pneumonia is present', 'asthma', 'mg daily']) expect(markdown.toLowerCase()).not.toContain(word);
    const doses = markdown.match(/\d+ ?mg/g) ?? [];
    expect(doses).toEqual(doses.filter((d) => d.replace(' ', '') === '500mg'));
  });

  it('corrects drug names against the medication list', async () => {
    const { markdown } = await soap({ medicationList: 'Metformin, Albuterol' });
    expect(markdown).toContain('Metformin 500 mg');
    expect(markdown).not.toMatch(/metforman/i);
  });

  it('shows patient details, date, context and a marked previous note', async () => {
    const { markdown } = await soap({
      patientInfo: { name: 'Ana Garcia', dateOfBirth: '1970-02-03' },
      date: '2024-05-06T10:00:00Z',
      context: 'Seen in urgent care',
      previousNote: 'PAST MEDICAL HISTORY\nType 2 diabetes.\nFAMILY HISTORY\nMother with asthma.',
    });
    expect(markdown).toContain('Ana Garcia');
    expect(markdown).toContain('1970-02-03');
    expect(markdown).toContain('2024-05-06');
    expect(markdown).toContain('Seen in urgent care');
    expect(markdown).toMatch(/Mother with asthma\. \(from previous note\)/);
  });

  it('returns the same note as JSON when asked, and only then (unasked, only what was said but not placed)', async () => {
    // Issue 24: what was said but could not be placed is always listed for review, never dropped; the note's sections only on request.
    const unasked = (await soap()).json;
    expect(Object.keys(unasked ?? {}).every((k) => k === 'unplaced' || k === 'untranslated')).toBe(true);
    const { markdown, json } = await writer.write({ transcript: ENCOUNTER, noteType: { type: 'soap', includeJson: true }, language: 'en' });
    const sections = json!.sections as { title: string; text?: string; items?: string[]; sections?: unknown[] }[];
    expect(sections.map((s) => s.title)).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    const walk = (list: typeof sections): string[] => list.flatMap((s) => [s.title, ...(s.text ? [s.text] : []), ...(s.items ?? []), ...walk((s.sections ?? []) as typeof sections)]);
    for (const piece of walk(sections)) expect(markdown).toContain(piece.split('\n\n')[0]!.replace(/\*\*/g, ''));
  });
});

describe('embedded note writer: free-text templates', () => {
  it('uses the sections, order and headings the template asks for', async () => {
    const template = 'CHIEF COMPLAINT\nHISTORY OF PRESENT ILLNESS\nPHYSICAL EXAMINATION\nASSESSMENT AND PLAN';
    const { markdown } = await writer.write({ transcript: ENCOUNTER, noteType: { type: 'note_style', template }, language: 'en' });
    const lines = markdown.split('\n');
    const at = template.split('\n').map((h) => lines.indexOf(h));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(markdown).toMatch(/wheezing/);
  });

  it('reads a one-line template with list instructions', async () => {
    const { markdown } = await writer.write({
      transcript: ENCOUNTER,
      noteType: { type: 'note_style', template: 'Sections: Subjective, Objective (bullet points), Assessment, Plan (numbered list)' },
      language: 'en',
    });
    expect(headings(markdown)).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    const plan = markdown.split('## Plan')[1]!;
    expect(plan).toMatch(/^1\. /m);
    expect(markdown.split('## Objective')[1]!.split('## Assessment')[0]).toMatch(/^- /m);
  });

  it('leaves out what the instructions exclude', async () => {
    const { markdown } = await soap({ instructions: ['Do not include social history'] });
    expect(markdown).not.toMatch(/smok/i);
  });
});

describe('embedded note writer: NoteTemplate objects', () => {
  const template: NoteTemplate = {
    id: 't1',
    title: 'Visit',
    sections: [
      { id: 'h1', type: 'heading', properties: { level: 2, text: 'Medications' }, children: [{ id: 'meds', type: 'list', prompt: 'Current medications', properties: { list_type: 'numeric', max_items: 1 } }] },
      { id: 'h2', type: 'heading', properties: { level: 2, text: 'Family history', hideIfEmpty: true }, children: [{ id: 'fh', type: 'text', prompt: 'Family history', properties: { hideIfEmpty: true } }] },
      { id: 'h3', type: 'heading', properties: { level: 3, text: 'Assessment', bold: true }, children: [{ id: 'a', type: 'text', prompt: 'Assessment', properties: { label: 'Impression', bold_label: true, max_sentences: 1 } }] },
      { id: 'h4', type: 'heading', properties: { level: 2, text: 'Labs' }, children: [{ id: 'labs', type: 'text', prompt: 'Lab results ordered today', properties: { emptyPlaceholder: 'None today.', formatting_style: 'plain' } }] },
    ],
  };

  it('honours headings, list type, limits, labels, hideIfEmpty and placeholders', async () => {
    const transcript = ENCOUNTER.replace('[doctor] the chest x-ray shows no pneumonia .\n', '');
    const { markdown } = await writer.write({ transcript, noteType: { type: 'note_template', noteTemplate: template }, language: 'en' });
    expect(markdown).toMatch(/^# Visit$/m);
    expect(markdown).toMatch(/^## Medications\n\n1\. /m);
    expect(markdown).not.toMatch(/^2\. /m);
    expect(markdown).not.toContain('Family history');
    expect(markdown).toMatch(/^### \*\*Assessment\*\*$/m);
    expect(markdown).toMatch(/\*\*Impression\*\*: /);
    expect(markdown).toMatch(/## Labs\n\nNone today\./);
  });

  it('meets min_items from what the transcript says even at minimal detail, and never pads', async () => {
    const transcript = [
      '[doctor] what brings you in today ?',
      '[patient] i have had a cough for three weeks .',
      '[patient] the cough is worse at night and wakes me up .',
      '[patient] i bring up yellow sputum in the morning .',
      '[patient] i have felt tired and run down for two weeks .',
      '[patient] i get short of breath when i climb the stairs at work .',
      '[patient] i had a fever of one hundred and one last weekend .',
      '[patient] my chest feels tight when i cough hard .',
      '[patient] i tried cough syrup from the pharmacy and it did not help .',
      '[patient] i have been sleeping propped up on two pillows .',
      '[patient] i noticed some wheezing when i lie down .',
    ].join('\n');
    const items = async (detail: 'minimal' | 'exhaustive', min?: number): Promise<string[]> => {
      const t: NoteTemplate = {
        id: 't2', title: 'HPI',
        sections: [{ id: 'hpi', type: 'list', prompt: 'History of present illness', properties: { list_type: 'bullet', detail_level: detail, ...(min !== undefined ? { min_items: min } : {}) } }],
      };
      const { markdown } = await writer.write({ transcript, noteType: { type: 'note_template', noteTemplate: t }, language: 'en' });
      return markdown.split('\n').filter((l) => l.startsWith('- '));
    };
    const minimal = await items('minimal');
    const everything = await items('exhaustive');
    expect(everything.length).toBeGreaterThan(minimal.length + 1);
    const withMin = await items('minimal', minimal.length + 2);
    expect(withMin.length).toBeGreaterThanOrEqual(minimal.length + 2);
    // More than the transcript supports cannot be met: every line is still one of the transcript's.
    const huge = await items('minimal', 500);
    expect(huge.length).toBeLessThanOrEqual(everything.length);
    for (const line of huge) expect(everything).toContain(line);
  });
});

describe('embedded note writer: languages', () => {
  it('writes headings and fixed phrases in each of the eight languages', async () => {
    const seen = new Set<string>();
    for (const language of NOTE_LANGUAGES) {
      const { markdown } = await writer.write({ transcript: ENCOUNTER, noteType: { type: 'soap' }, language });
      seen.add(headings(markdown).slice(0, 3).join('|'));
    }
    expect(seen.size).toBe(NOTE_LANGUAGES.length);
    const es = (await writer.write({ transcript: ENCOUNTER, noteType: { type: 'soap' }, language: 'es' })).markdown;
    expect(es).toContain('## Subjetivo');
    expect(es).toMatch(/Niega fiebre y escalofríos/);
    const zh = (await writer.write({ transcript: ENCOUNTER, noteType: { type: 'soap' }, language: 'zh' })).markdown;
    expect(zh).toContain('否认发热和寒战');
  });

  it('accepts a transcript in another language and keeps its sentences', async () => {
    const transcript = 'Médico: ¿Qué le trae hoy?\nPaciente: Tengo dolor de cabeza desde hace tres días y náuseas por la mañana.\nMédico: Vamos a pedir una analítica y empezar paracetamol.';
    const { markdown } = await writer.write({ transcript, noteType: { type: 'soap' }, language: 'es' });
    expect(markdown).toContain('Tengo dolor de cabeza desde hace tres días');
    expect(markdown).toContain('## Plan');
  });
});

describe('embedded note writer: dictation and empty encounters', () => {
  it('writes a note from an untagged dictation', async () => {
    const transcript = 'Patient presents with a three day history of sore throat and fever. Denies cough. Exam shows tonsillar exudate. Plan: start amoxicillin.';
    const { markdown } = await writer.write({ transcript, noteType: { type: 'soap' }, language: 'en' });
    expect(markdown).toMatch(/### Chief Complaint\n\n3 day history of sore throat and fever\./);
    expect(markdown).toMatch(/Denies cough/);
    expect(markdown.split('## Objective')[1]!.split('## Assessment')[0]).toMatch(/tonsillar exudate/i);
    expect(markdown.split('## Plan')[1]).toMatch(/amoxicillin/i);
  });

  it('says where it recorded nothing, in the note language, instead of inventing content or claiming it was not discussed', async () => {
    const { markdown } = await writer.write({ transcript: 'hello', noteType: { type: 'soap' }, language: 'fr' });
    expect(markdown.match(/Rien de consigné ici ; vérifier la transcription\./g)?.length).toBe(4);
    expect(markdown).not.toMatch(/Non abordé/);
  });
});
