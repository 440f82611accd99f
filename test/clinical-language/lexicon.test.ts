import { describe, expect, it } from 'vitest';
import { findInContext } from '../../main/services/clinical-language/context.js';
import { CONDITIONS, EXAM_REGIONS, findingPhrases, SYMPTOMS, symptomsIn } from '../../main/services/clinical-language/lexicon.js';
import { createPhraseMatcher } from '../../main/services/clinical-language/phrase-match.js';

describe('finding lexicon', () => {
  it('reads what patients say as symptoms with their body system', () => {
    const said = "I threw up twice last night and I just can't catch my breath when I climb stairs.";
    expect(symptomsIn(said).map((s) => [s.term, s.system])).toEqual([
      ['shortness of breath', 'Respiratory'],
      ['vomiting', 'Gastrointestinal'],
    ]);
  });

  it('reads written synonyms and abbreviations in a note, each with its context', () => {
    const matcher = createPhraseMatcher([...findingPhrases(SYMPTOMS), ...findingPhrases(CONDITIONS)], { capitalsUpTo: 3 });
    const note = 'HPI: 64M with HTN and T2DM, c/o SOB and emesis x2 days. Denies visual changes. Mother had CAD.';
    const found = findInContext(note, matcher).map((m) => [m.value.term, m.context.negated, m.context.family]);
    expect(found).toEqual([
      ['hypertension', false, false],
      ['type 2 diabetes mellitus', false, false],
      ['shortness of breath', false, false],
      ['vomiting', false, false],
      ['vision changes', true, false],
      ['coronary artery disease', false, true],
    ]);
  });

  it('gives every symptom a body system and no phrase to two findings', () => {
    const owner = new Map<string, string>();
    for (const e of SYMPTOMS) {
      expect(e.system).toBeDefined();
      for (const p of [e.term, ...e.synonyms]) {
        expect(owner.get(p) ?? e.term, `"${p}" names both ${owner.get(p)} and ${e.term}`).toBe(e.term);
        owner.set(p, e.term);
      }
    }
  });

  it('places an exam finding in its region', () => {
    const region = (text: string): string | undefined => EXAM_REGIONS.find((r) => r.re.test(text))?.label;
    expect(region('Lungs clear to auscultation bilaterally.')).toBe('Respiratory');
    expect(region('Abdomen soft, non-tender, normal bowel sounds.')).toBe('Gastrointestinal');
    expect(region('Tympanic membranes pearly grey.')).toBe('HEENT');
  });
});
