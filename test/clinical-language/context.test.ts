import { describe, expect, it } from 'vitest';
import { answerPolarity, contextOf, findInContext, type FindingContext } from '../../main/services/clinical-language/context.js';
import { createPhraseMatcher } from '../../main/services/clinical-language/phrase-match.js';

/** Context of the first occurrence of `finding` in `sentence`. */
function ctx(sentence: string, finding: string): FindingContext {
  const at = sentence.indexOf(finding);
  if (at < 0) throw new Error(`"${finding}" not in "${sentence}"`);
  return contextOf(sentence, at, at + finding.length);
}
const flags = (c: FindingContext): string[] => (['negated', 'uncertain', 'hypothetical', 'historical', 'family'] as const).filter((k) => c[k]);

describe('negation scope', () => {
  it.each([
    ['She denies fever, shortness of breath or ear pain.', 'ear pain'],
    ['No evidence of pneumonia on chest x-ray.', 'pneumonia'],
    ['Abdomen soft, non-tender, without guarding or rebound.', 'rebound'],
    ['Negative for chest pain, palpitations and syncope.', 'syncope'],
    ['Pulmonary embolism was ruled out by CT angiogram.', 'Pulmonary embolism'],
    ['Chest pain: denied.', 'Chest pain'],
    ['Fever - negative', 'Fever'],
    ["I haven't had any fever since Tuesday.", 'fever'],
    ['Denies: nausea, vomiting, diarrhea.', 'diarrhea'],
    // Tokenised speech (ACI-Bench's transcripts, some recognisers) splits the contraction.
    ["and , since they do n't have covid-19 , you can go .", 'covid-19'],
    ["i have n't had any fever since tuesday .", 'fever'],
  ])('"%s" negates %s', (sentence, finding) => {
    const c = ctx(sentence, finding);
    expect(c.negated).toBe(true);
    expect(c.trigger?.category).toBe('negated');
  });

  it.each([
    ['Denies fever but reports a productive cough.', 'productive cough'],
    ['No fever; cough for three days.', 'cough'],
    ['No fever. Cough for three days.', 'Cough'],
    ['Denies chest pain, has exertional dyspnea.', 'exertional dyspnea'],
    ['No relief with ibuprofen.', 'ibuprofen'],
    ['No change in his chronic back pain.', 'back pain'],
    ['Gram negative rods in the urine culture.', 'rods'],
    ['Reports polyuria and fatigue; denies chest pain.', 'polyuria'],
  ])('"%s" leaves %s affirmed', (sentence, finding) => {
    expect(ctx(sentence, finding).negated).toBe(false);
  });

  it('keeps each finding of a long review of systems in its own clause', () => {
    const ros = 'Reports sore throat and nasal congestion. Denies fever, chills, night sweats, weight loss, nausea, vomiting or dysuria.';
    expect(ctx(ros, 'sore throat').negated).toBe(false);
    expect(ctx(ros, 'dysuria').negated).toBe(true);
    expect(ctx(ros, 'weight loss').negated).toBe(true);
  });
});

describe('uncertainty and hypothetical findings', () => {
  it.each([
    ['Possible community-acquired pneumonia.', 'pneumonia'],
    ['Findings concerning for early appendicitis.', 'appendicitis'],
    ['Pulmonary embolism is unlikely given the normal D-dimer.', 'Pulmonary embolism'],
    ['Cannot rule out a hairline fracture of the scaphoid.', 'fracture'],
  ])('"%s" makes %s uncertain, not negated', (sentence, finding) => {
    const c = ctx(sentence, finding);
    expect(flags(c)).toEqual(['uncertain']);
  });

  it.each([
    ['CT chest to rule out PE.', 'PE'],
    ['R/O DVT, Doppler ordered.', 'DVT'],
    ['Return to the ED if the chest pain gets worse.', 'chest pain'],
    ['Monitor for signs of bleeding while on apixaban.', 'bleeding'],
  ])('"%s" names %s only as something to look for', (sentence, finding) => {
    const c = ctx(sentence, finding);
    expect(c.uncertain).toBe(true);
    expect(c.hypothetical).toBe(true);
    expect(c.negated).toBe(false);
  });
});

describe('history and other people', () => {
  it.each([
    ['History of migraines without aura.', 'migraines'],
    ['Status post laparoscopic appendectomy in 2010.', 'appendectomy'],
    ['S/p CABG x3.', 'CABG'],
    ['Previous myocardial infarction, on aspirin.', 'myocardial infarction'],
    ['He had a stroke five years ago.', 'stroke'],
  ])('"%s" makes %s historical', (sentence, finding) => {
    expect(ctx(sentence, finding).historical).toBe(true);
    expect(ctx(sentence, finding).family).toBe(false);
  });

  it('a day count before "history" is the current illness, not the past', () => {
    const c = ctx('27 yo female with a 2 day history of throbbing headache.', 'headache');
    expect(flags(c)).toEqual([]);
  });

  it('a new complaint after "now" is current again', () => {
    expect(ctx('History of asthma, now with wheezing and cough.', 'wheezing').historical).toBe(false);
  });

  it.each([
    ['Her mother had breast cancer at 50.', 'breast cancer'],
    ['Family history of coronary artery disease in her father.', 'coronary artery disease'],
    ['Colon cancer in mother.', 'Colon cancer'],
    ['My husband has had a cold all week.', 'cold'],
  ])('"%s" gives %s to someone else', (sentence, finding) => {
    expect(ctx(sentence, finding).family).toBe(true);
  });

  it('the relative who brings the child or tells the story does not own the symptoms', () => {
    expect(ctx('6-year-old girl brought in by mother for right ear pain and fever.', 'ear pain').family).toBe(false);
    expect(ctx('Mother reports fever since yesterday.', 'fever').family).toBe(false);
    expect(ctx('Her mother had diabetes and she has hypertension.', 'hypertension').family).toBe(false);
  });

  it('a negated family history is both', () => {
    const c = ctx('No family history of sudden cardiac death.', 'sudden cardiac death');
    expect(c.negated).toBe(true);
    expect(c.family).toBe(true);
  });
});

describe('findInContext', () => {
  it('reports every lexicon match of a note with its own context', () => {
    const matcher = createPhraseMatcher([
      { value: 'chest pain', phrases: ['chest pain', 'chest pressure'] },
      { value: 'dyspnea', phrases: ['shortness of breath', 'dyspnea'] },
      { value: 'diabetes', phrases: ['diabetes', 'type 2 diabetes'] },
    ]);
    const note = 'Presents with chest pressure. Denies shortness of breath. Father with type 2 diabetes.';
    const found = findInContext(note, matcher).map((m) => [m.value, m.surface, flags(m.context)]);
    expect(found).toEqual([
      ['chest pain', 'chest pressure', []],
      ['dyspnea', 'shortness of breath', ['negated']],
      ['diabetes', 'type 2 diabetes', ['family']],
    ]);
  });
});

describe('answerPolarity', () => {
  it('reads a yes or no reply to a symptom question', () => {
    expect(answerPolarity('No, not really.')).toBe('negative');
    expect(answerPolarity("I haven't noticed any.")).toBe('negative');
    expect(answerPolarity('Yeah, a little bit at night.')).toBe('positive');
    expect(answerPolarity('It started on Monday.')).toBeUndefined();
    expect(answerPolarity('Nothing like that.')).toBe('negative');
    expect(answerPolarity('Notably worse at night.')).toBeUndefined();
  });
});

describe('idioms that hold a negation word', () => {
  it('reads "last but not least, there is the hypertension" as no denial', () => {
    expect(flags(ctx('last but not least there is the hypertension , your pressure is fine .', 'hypertension'))).toEqual([]);
    expect(flags(ctx('there is no hypertension .', 'hypertension'))).toEqual(['negated']);
  });
});
