import { describe, expect, it } from 'vitest';
import {
  categoriesOf,
  copyShare,
  findingStates,
  kept,
  medicationRecall,
  negationConflicts,
  untranslatedShare,
  withinLength,
} from '../../scripts/note-metrics.js';
import { spread } from '../../scripts/eval-notes-dump.js';
import { splitName } from '../../scripts/eval-notes-data.js';

// Fragments in ACI-Bench's style: a transcript as the recogniser writes it, a note as a clinician does.
const TRANSCRIPT = `[doctor] so how are you doing today
[patient] i have had this cough for about a week now and it is bringing up yellow stuff
[doctor] okay any fever
[patient] no no fever`;

describe('copy share', () => {
  it('counts every token of a 6-token run the transcript also has, and nothing of a clinician\'s rewording', () => {
    const copied = copyShare('I have had this cough for about a week now.', TRANSCRIPT);
    expect(copied).toEqual({ tokens: 10, copied: 10 });
    const written = copyShare('Reports productive cough for 1 week with yellow sputum. Denies fever.', TRANSCRIPT);
    expect(written.copied).toBe(0);
  });

  it('counts only the copied part of a sentence, and a 5-token run is no copy', () => {
    // "bringing up yellow stuff" is 4 tokens: not a run; "cough for about a week now" is 6.
    const mixed = copyShare('Productive cough for about a week now, bringing up yellow stuff.', TRANSCRIPT);
    expect(mixed).toEqual({ tokens: 11, copied: 6 });
    expect(copyShare('cough for about a week', TRANSCRIPT).copied).toBe(0);
  });

  it('ignores case and punctuation, as the tokens are lower-case alphanumeric', () => {
    expect(copyShare('HAVE HAD THIS COUGH, FOR ABOUT!', TRANSCRIPT).copied).toBe(6);
  });
});

describe('problems kept', () => {
  it('reads categories from codes and counts the wanted ones found', () => {
    expect([...categoriesOf(['I11.0', 'i50.9', 'E11.65', 'E11.9'])]).toEqual(['I11', 'I50', 'E11']);
    expect(kept(new Set(['I11', 'I50', 'E11']), new Set(['I11', 'J45']))).toEqual({ wanted: 3, kept: 1 });
    expect(kept(new Set(), new Set(['I11']))).toEqual({ wanted: 0, kept: 0 });
  });
});

describe('medication-with-dose recall', () => {
  const reference = 'MEDICATIONS\nLisinopril 20 mg daily.\nMetformin 500 mg twice a day.\nContinue aspirin.';
  it('counts the drugs the reference gives with a dose, and which of them the note names', () => {
    expect(medicationRecall('Continue lisinopril and metformin.', reference)).toEqual({ dosed: 2, found: 2 });
    expect(medicationRecall('Continue lisinopril. Aspirin daily.', reference)).toEqual({ dosed: 2, found: 1 });
  });
  it('a drug the reference names without a dose is not counted', () => {
    expect(medicationRecall('', 'Continue aspirin.')).toEqual({ dosed: 0, found: 0 });
  });
});

describe('negation conflicts (ConText)', () => {
  it('reads present and absent findings, and leaves out questions, uncertainty and family history', () => {
    const states = findingStates('Reports productive cough. Denies fever and chest pain. Any nausea? Possible pneumonia. Mother had diabetes.');
    expect(states.get('productive cough')).toBe('present');
    expect(states.get('fever')).toBe('absent');
    expect(states.get('chest pain')).toBe('absent');
    expect(states.has('nausea')).toBe(false);
    expect(states.has('pneumonia')).toBe(false);
    expect(states.has('diabetes')).toBe(false);
  });

  it('flags a finding the note states the other way from the reference', () => {
    const reference = 'The patient reports a cough. She denies fever.';
    expect(negationConflicts('Cough for one week. No fever.', reference)).toEqual({ compared: 2, conflicts: [] });
    expect(negationConflicts('No cough. Reports fever.', reference)).toEqual({
      compared: 2,
      conflicts: ['cough: note absent, reference present', 'fever: note present, reference absent'],
    });
  });

  it('a finding only one text states is not compared', () => {
    expect(negationConflicts('Denies headache.', 'Reports a cough.')).toEqual({ compared: 0, conflicts: [] });
  });
});

describe('untranslated share', () => {
  it('counts the words inside the writer\'s markers, not the marker\'s label', () => {
    const note = '## Anamnese\nHusten seit einer Woche. [en, nicht übersetzt: she has been coughing a lot]';
    expect(untranslatedShare(note, 'de')).toEqual({ words: 11, untranslated: 6 });
    expect(untranslatedShare('## Anamnese\nHusten seit einer Woche.', 'de')).toEqual({ words: 5, untranslated: 0 });
  });

  it('counts a Chinese character as a word', () => {
    expect(untranslatedShare('咳嗽一周。[en, 未翻译: yellow sputum]', 'zh')).toEqual({ words: 6, untranslated: 2 });
  });
});

describe('length and the dump\'s choice', () => {
  it('a note within ±30% of the reference\'s tokens passes, beyond it fails', () => {
    expect(withinLength(130, 100)).toBe(true);
    expect(withinLength(131, 100)).toBe(false);
    expect(withinLength(70, 100)).toBe(true);
    expect(withinLength(69, 100)).toBe(false);
  });

  it('spreads a review sample over the whole split (its dialogue styles are in runs)', () => {
    expect(spread([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 4)).toEqual([0, 3, 6, 9]);
    expect(spread([1, 2], 5)).toEqual([1, 2]);
    expect(splitName('test2')).toBe('clinicalnlp_taskC_test2');
    expect(splitName('valid')).toBe('valid');
  });
});
