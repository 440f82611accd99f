import { describe, it, expect } from 'vitest';
import { createEmbeddedNoteWriter, createEmbeddedStyleWriter } from '../../main/engines/text/embedded/index.js';
import { parseNote, isListLine } from '../../main/engines/text/embedded/note-parse.js';
import { ENCOUNTER } from './fixtures.js';

const SAMPLE = `CHIEF COMPLAINT

Cough.

HISTORY OF PRESENT ILLNESS

Mr. Doe is a 40-year-old male who presents with a cough for one week. He denies fever. He reports wheezing at night. He quit smoking last year.

PHYSICAL EXAM

- Respiratory: Scattered wheezes.
- Cardiovascular: Regular rate and rhythm.

ASSESSMENT AND PLAN

1. Acute bronchitis.
2. Albuterol as needed.
3. Return if worse.
`;

describe('embedded style writer', () => {
  it('turns a sample note into a template text naming its sections and shapes', async () => {
    const styles = createEmbeddedStyleWriter();
    expect(styles.name).toBe('embedded');
    const template = await styles.createTemplate(SAMPLE, ['Use short sentences']);
    expect(template).toContain('"CHIEF COMPLAINT"');
    expect(template).toMatch(/"PHYSICAL EXAM".*bulleted list/);
    expect(template).toMatch(/"ASSESSMENT AND PLAN".*numbered list.*3 items/);
    expect(template).toContain('- Use short sentences');
  });

  it('round trip: the template reproduces the sample\'s sections, order, headings and list-vs-prose', async () => {
    const template = await createEmbeddedStyleWriter().createTemplate(SAMPLE, []);
    const { markdown } = await createEmbeddedNoteWriter().write({ transcript: ENCOUNTER, noteType: { type: 'note_style', template }, language: 'en' });
    const sample = parseNote(SAMPLE);
    const note = parseNote(markdown);
    expect(note.map((s) => s.heading)).toEqual(sample.map((s) => s.heading));
    for (let i = 0; i < sample.length; i++) {
      const listy = (lines: string[]): boolean => lines.filter(Boolean).some(isListLine);
      expect(listy(note[i]!.lines), sample[i]!.heading).toBe(listy(sample[i]!.lines));
      // Level of detail: no more items than the sample's section has.
      const count = (lines: string[]): number => lines.filter(isListLine).length;
      if (listy(sample[i]!.lines)) expect(count(note[i]!.lines)).toBeLessThanOrEqual(count(sample[i]!.lines));
    }
    expect(note[3]!.lines.filter(Boolean)[0]).toMatch(/^1\. /);
  });

  it('refuses a sample with no sections it can read', async () => {
    await expect(createEmbeddedStyleWriter().createTemplate('just some words', [])).rejects.toMatchObject({ status: 400 });
  });
});
