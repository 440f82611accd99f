import { describe, expect, it } from 'vitest';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import { NOTE_SECTION_KINDS, noteLabels } from '../../main/services/clinical-language/section-labels.js';

describe('section labels', () => {
  it('has every heading and fixed word in all eight note languages', () => {
    const keys = Object.keys(noteLabels('en')).sort();
    for (const language of NOTE_LANGUAGES) {
      const labels = noteLabels(language);
      expect(Object.keys(labels).sort()).toEqual(keys);
      for (const [key, value] of Object.entries(labels)) expect(value.trim(), `${language}.${key}`).not.toBe('');
    }
    for (const kind of NOTE_SECTION_KINDS) expect(keys).toContain(kind);
  });

  it('writes SOAP headings in the note language', () => {
    const soap = (l: (typeof NOTE_LANGUAGES)[number]): string[] => {
      const x = noteLabels(l);
      return [x.subjective, x.objective, x.assessment, x.plan];
    };
    expect(soap('en')).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    expect(soap('es')).toEqual(['Subjetivo', 'Objetivo', 'Evaluación', 'Plan']);
    expect(soap('de')).toEqual(['Subjektiv', 'Objektiv', 'Beurteilung', 'Plan']);
    expect(soap('zh')).toEqual(['主观资料', '客观资料', '评估', '计划']);
  });

  it('translates, rather than copies, the English headings', () => {
    const en = noteLabels('en');
    for (const language of NOTE_LANGUAGES.filter((l) => l !== 'en')) {
      const labels = noteLabels(language);
      expect(labels.hpi, language).not.toBe(en.hpi);
      expect(labels.notDocumented, language).not.toBe(en.notDocumented);
      expect(labels.family, language).not.toBe(en.family);
    }
  });
});
