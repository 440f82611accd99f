import { describe, expect, it } from 'vitest';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/index.js';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import { ENCOUNTER } from './fixtures.js';

const writer = createEmbeddedNoteWriter();
// Real ACI-Bench-style plan talk (short, rewritten for the test).
const PLAN = `${ENCOUNTER}
[doctor] for your high blood pressure , i want to go ahead and increase your lisinopril to forty milligrams once a day .
[doctor] i'm also going to order an echocardiogram .
[doctor] i'd like to refer you to physical therapy .
[doctor] i'll see you back in three months .`;

/** The note with every untranslated marker taken out: what the writer claims to have written in the note's language. */
const outsideMarkers = (markdown: string): string => markdown.replace(/\[en, [^:\]]+: [^\]]*\]/g, ' ');

describe('embedded note writer: every output language', () => {
  it('writes structured content in Spanish from the facts: symptoms, medications, orders, referral, follow-up', async () => {
    const { markdown, json } = await writer.write({ transcript: PLAN, noteType: { type: 'soap', includeJson: true }, language: 'es', medicationList: 'Metformin, Lisinopril' });
    expect(markdown).toMatch(/Niega fiebre y escalofríos/);
    expect(markdown).toMatch(/Metformin 500 mg dos veces al día/);
    expect(markdown).toMatch(/Aumentar lisinopril a 40 mg una vez al día/i);
    expect(markdown).toContain('Solicitar ecocardiograma.');
    expect(markdown).toContain('Derivar a fisioterapia.');
    expect(markdown).toContain('Control en 3 meses.');
    expect(markdown).toMatch(/Hipertensión arterial/);
    // Free prose stays English, visibly marked, and the JSON lists it with its section.
    expect(markdown).toMatch(/\[en, sin traducir: [^\]]*cough[^\]]*\]/);
    const left = (json as { untranslated: { section: string; text: string }[] }).untranslated;
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((u) => u.section && u.text && markdown.includes(u.text.slice(0, 20)))).toBe(true);
    expect((json as { sourceLanguage: string }).sourceLanguage).toBe('en');
  });

  it.each(NOTE_LANGUAGES.filter((l) => l !== 'en'))('%s: no English prose outside the markers', (language) => {
    return writer.write({ transcript: PLAN, noteType: { type: 'soap' }, language, medicationList: 'Metformin, Lisinopril' }).then(({ markdown }) => {
      const rest = outsideMarkers(markdown);
      expect(rest).not.toMatch(/\b(the|and|with|patient|she|he|has|was|advised|denies|endorses|order|follow up)\b/i);
      expect(markdown).toMatch(/\[en, [^:\]]+: /);
    });
  });

  it('leaves a transcript in the note language unmarked', async () => {
    const transcript = 'Médico: ¿Qué le trae hoy?\nPaciente: Tengo dolor de cabeza desde hace tres días y náuseas por la mañana.\nMédico: Vamos a pedir una analítica.';
    const { markdown, json } = await writer.write({ transcript, noteType: { type: 'soap', includeJson: true }, language: 'es' });
    expect(markdown).toContain('Tengo dolor de cabeza desde hace tres días');
    expect(markdown).not.toMatch(/sin traducir/);
    expect(json).not.toHaveProperty('untranslated');
  });

  it('marks a Spanish transcript\'s sentences in an English note, naming their language', async () => {
    const transcript = 'Médico: ¿Qué le trae hoy?\nPaciente: Tengo dolor de cabeza desde hace tres días y náuseas por la mañana.';
    const { markdown } = await writer.write({ transcript, noteType: { type: 'soap' }, language: 'en' });
    expect(markdown).toMatch(/\[es, not translated: Tengo dolor de cabeza/);
  });
});
