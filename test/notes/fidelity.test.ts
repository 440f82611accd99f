import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkFidelity, reviewMarkersIn, unsupportedNumbers, type FidelitySources } from '../../main/services/notes/fidelity.js';
import { normaliseNumbers, numberToWords } from '../../main/services/clinical-language/index.js';

// Transcript fragments as the recogniser writes them (lower case, spaced punctuation, " . " for "point").
const check = (markdown: string, transcript: string, extra: Partial<FidelitySources> = {}) =>
  checkFidelity({ markdown }, { transcript, ...extra });
const flagged = (markdown: string, transcript: string, extra: Partial<FidelitySources> = {}) =>
  check(markdown, transcript, extra).review.map((r) => [r.kind, r.text, r.reason]);

describe('fidelity: numbers and doses', () => {
  it('removes "60600 mg" made from a disfluent "six hundred six hundred milligrams" and keeps 600 mg', () => {
    const t = '[patient] i take guaifenesin six hundred six hundred milligrams for the cough .';
    const bad = check('Guaifenesin 60600 mg for cough.', t);
    expect(bad.markdown).toBe('Guaifenesin ⚠[check: removed, the transcript gives Guaifenesin 600 mg] for cough.');
    expect(bad.review).toEqual([
      { kind: 'dose', text: '60600 mg', reason: 'the transcript gives Guaifenesin 600 mg', action: 'removed', position: { start: 12, end: 70, line: 1 } },
    ]);
    expect(check('Guaifenesin 600 mg for cough.', t).review).toEqual([]);
  });

  it('gives a dose said right before its drug ("500 mg of metformin") to that drug, not to one named just before', () => {
    const t = '[doctor] you take lisinopril for your blood pressure and we have you on 500 mg of metformin twice a day .\n[doctor] i want to increase your metformin to 1000 mg twice a day .';
    expect(flagged('- Metformin 500 mg twice daily.\n- Lisinopril.', t)).toEqual([]);
    expect(flagged('- Metformin 250 mg twice daily.', t).map(([kind]) => kind)).toEqual(['dose']);
  });

  it('reads "a . five centimeter" as 0.5 cm: "5 cm" is removed, "0.5 cm" is supported', () => {
    const t = '[doctor] the ct shows a . five centimeter kidney stone on the right .';
    expect(flagged('CT: 5 cm right kidney stone.', t)).toEqual([['dose', '5 cm', 'measurement not in the transcript']]);
    expect(check('CT: 5 cm right kidney stone.', t).markdown).not.toContain('5 cm');
    expect(flagged('CT: 0.5 cm right kidney stone.', t)).toEqual([]);
  });

  it('reads clinical number words: blood pressure, fifteen hundred, point five, temperature', () => {
    const t = `[doctor] your blood pressure is one twenty over eighty and your temperature is ninety eight point six .
[doctor] keep it to fifteen hundred calories and take point five milligrams of lorazepam at bedtime .`;
    expect(flagged('BP 120/80 mmHg. Temperature 98.6 °F. 1500 calories. Lorazepam 0.5 mg at bedtime.', t)).toEqual([]);
    expect(flagged('BP 130/80 mmHg.', t)).toEqual([['dose', '130/80 mmHg', 'measurement not in the transcript']]);
    expect(flagged('Temperature 98.8 °F.', t)).toEqual([['number', '98.8', 'number not in the transcript']]);
  });

  it('supports percentages, ranges, a murmur grade said "three out of six" and counts said as words', () => {
    const t = `[doctor] your oxygen is ninety six percent . i hear a three out of six systolic ejection murmur .
[doctor] physical therapy twice a week and come back in two to three weeks , or in a week if worse .`;
    expect(flagged('SpO2 96%. Heart: 3/6 systolic ejection murmur. PT 2 times a week. Follow up in 2-3 weeks, or in 1 week if worse.', t)).toEqual([]);
    expect(flagged('SpO2 94%.', t)).toEqual([['dose', '94%', 'measurement not in the transcript']]);
    expect(flagged('Heart: 4/6 systolic ejection murmur.', t)).toEqual([['number', '4/6', 'number not in the transcript']]);
    // Six is said ("three out of six"); four is not.
    expect(flagged('Follow up in 4-6 weeks.', t)).toEqual([['number', '4', 'number not in the transcript']]);
  });

  it('marks a dose whose unit differs from the one said (mg for mcg), and a dose unit never said', () => {
    const t = '[patient] i take levothyroxine twenty five micrograms every morning and lisinopril twenty .';
    expect(check('Levothyroxine 25 mg every morning.', t).markdown).toBe('Levothyroxine 25 mg ⚠[check: the transcript says Levothyroxine 25 mcg] every morning.');
    expect(flagged('Levothyroxine 25 mcg.', t)).toEqual([]);
    expect(flagged('Lisinopril 20 mg.', t)).toEqual([['unit', '20 mg', 'the unit (mg) is not in the transcript']]);
  });

  it('keeps a number the transcript says unclearly as spoken, marked, and never picks a reading', () => {
    const t = "[doctor] we'll see . five milligrams of the patch .";
    const note = check('Patch 5 mg.', t);
    expect(note.markdown).toBe('Patch ". five milligrams" ⚠[check: unclear in the transcript (a sentence break or a decimal point): 0.5 or 5].');
    expect(note.review[0]).toMatchObject({ kind: 'dose', text: '5 mg', action: 'marked' });
    expect(check('Patch 0.5 mg.', t).review).toHaveLength(1);
  });

  it('flags a dose that belongs to another drug, and a drug no source mentions', () => {
    const t = '[patient] metformin five hundred milligrams and atorvastatin forty milligrams .';
    expect(flagged('Metformin 40 mg. Atorvastatin 40 mg.', t)).toEqual([['dose', '40 mg', 'the transcript gives Metformin 500 mg']]);
    expect(check('Start warfarin 5 mg.', t, { medicationList: ['Warfarin'] }).markdown).toBe(
      'Start ⚠[check: removed, medication not mentioned in the transcript] ⚠[check: removed, dose not in the transcript].',
    );
  });
});

describe('fidelity: frequency, side, negation', () => {
  it('marks a frequency the transcript gives differently for that drug', () => {
    const t = '[patient] i take metformin five hundred milligrams once a day . and vitamin d twice a day .';
    expect(flagged('Metformin 500 mg twice daily.', t)).toEqual([['frequency', 'twice daily', 'the transcript says once a day']]);
    expect(flagged('Metformin 500 mg once daily. Vitamin D twice daily.', t)).toEqual([]);
    expect(flagged('Walks daily.', t)).toEqual([]);
  });

  it('marks a swapped side and a side the transcript never gives', () => {
    const t = '[patient] my right knee has been swelling for a week . [doctor] lungs are clear bilaterally .';
    expect(check('Right knee swelling. Left knee effusion.', t).markdown).toBe('Right knee swelling. Left knee ⚠[check: the transcript says right knee] effusion.');
    expect(flagged('Swelling of the knee on the left.', t)).toEqual([['laterality', 'knee on the left', 'the transcript says right knee']]);
    expect(flagged('Left shoulder pain.', t)).toEqual([['laterality', 'Left shoulder', 'side (left) not in the transcript']]);
    expect(flagged('Lungs clear bilaterally. Right now stable.', t)).toEqual([]);
  });

  it('marks a negation flipped against what the patient said, read through questions and answers', () => {
    const t = `[doctor] any chest pain ?
[patient] yes , on and off for three days .
[doctor] any fever or chills ?
[patient] no .
[doctor] have you had any nausea
[patient] nope
[patient] i do n't have any cough .`;
    expect(flagged('Denies chest pain.', t)).toEqual([['negation', 'chest pain', 'the denial of chest pain (the transcript reports chest pain)']]);
    expect(flagged('Reports chest pain for 3 days. Denies fever, chills, nausea and cough.', t)).toEqual([]);
    expect(flagged('Reports cough.', t)).toEqual([['negation', 'cough', 'the transcript says no cough']]);
    expect(flagged('Denies headache.', t)).toEqual([['negation', 'headache', 'the denial of headache (not discussed in the transcript)']]);
    expect(flagged('Non-cardiac chest pain.', t)).toEqual([]);
    // A denial the transcript contradicts or never makes is taken out (its marker says why); a finding
    // stated against a denial stays, marked.
    const denial = check('Denies chest pain.', t);
    expect(denial.markdown).not.toMatch(/Denies chest pain/);
    expect(denial.review.map((i) => [i.text, i.action])).toEqual([['chest pain', 'removed']]);
    expect(check('Reports cough.', t).review.map((i) => [i.text, i.action])).toEqual([['cough', 'marked']]);
  });

  it('reads a denial given as the answer, in the words the question used, and a group denied through its members', () => {
    const t = `[doctor] any swelling in your legs ?
[patient] no , nothing like that .
[doctor] any burning when you urinate ?
[patient] no .
[doctor] any fevers or chills ?
[patient] no fevers , maybe some chills .`;
    // "swelling in your legs" is leg swelling (the longer reading), not bare edema.
    expect(flagged('Denies leg swelling.', t)).toEqual([]);
    // A clinician writes the group; the member asked about and denied supports it.
    expect(flagged('Denies urinary symptoms.', t)).toEqual([]);
    expect(flagged('Denies fever.', t)).toEqual([]);
    // The answer's own words govern: chills were hedged, not denied.
    expect(flagged('Denies chills.', t)).toEqual([['negation', 'chills', 'the transcript is unsure about chills']]);
    // A group with a member reported is not denied.
    const reported = `[doctor] any burning when you urinate ?
[patient] yes , it burns every time .`;
    expect(flagged('Denies urinary symptoms.', reported)).toEqual([
      ['negation', 'urinary symptoms', 'the denial of urinary symptoms (the transcript reports urinary symptoms)'],
    ]);
    // The group asked about and denied, then a member reported: the report stands against the denial.
    const both = `[doctor] any urinary symptoms ?
[patient] no .
[doctor] any burning when you urinate ?
[patient] yes , it burns every time .`;
    expect(flagged('Denies urinary symptoms.', both).map((f) => f[1])).toEqual(['urinary symptoms']);
    expect(flagged('Denies urinary symptoms.', '[doctor] any headache ?\n[patient] no .')).toEqual([
      ['negation', 'urinary symptoms', 'the denial of urinary symptoms (not discussed in the transcript)'],
    ]);
  });

  it('reads run-on recogniser speech: far negations, "no, just …", tag questions, and questions left in a note', () => {
    const t = `[doctor] i do n't hear a murmur , your lungs are clear , and on your right knee i do appreciate some edema .
[doctor] any numbness ?
[patient] no just the headache and the pain .
[doctor] you have no rash , okay ?`;
    expect(flagged('Right knee edema.', t)).toEqual([]);
    expect(flagged('Denies headache.', t)).toEqual([['negation', 'headache', 'the denial of headache (the transcript reports headache)']]);
    expect(flagged('Denies numbness. No rash.', t)).toEqual([]);
    expect(flagged('Rash on the arm.', t)).toEqual([['negation', 'Rash', 'the transcript says no rash']]);
    // A question copied into a note, or "call for any numbness", claims nothing either way.
    // The question claims no negation; it is flagged only as the doctor's question stored in a note.
    expect(flagged('Any numbness? Call for any numbness.', t)).toEqual([['register', 'Any numbness?', 'reads as conversation (a question)']]);
  });
});

describe('fidelity: header, layout, sources', () => {
  const header = '**Patient:** Ana Ruiz  \n**Date of birth:** 1980-02-03  \n**Date:** 2026-11-20 10:00';

  it('supports dates, times and the age from patientInfo and the encounter date', () => {
    const sources = { patientInfo: { name: 'Ana Ruiz', dateOfBirth: '1980-02-03' }, date: '2026-11-20T10:00:00Z' };
    expect(flagged(`${header}\n\n46-year-old female with cough.`, '[patient] i have a cough .', sources)).toEqual([]);
    expect(flagged('47-year-old female.', '[patient] i have a cough .', sources)).toEqual([['number', '47', 'number not in the transcript']]);
    expect(flagged('Seen 2026-11-21.', '[patient] i have a cough .', sources)).toEqual([['date', '2026-11-21', 'date or time not in the transcript or header']]);
    // Without an encounter date the age is the age today.
    expect(flagged('46-year-old.', 'cough', { patientInfo: { dateOfBirth: '1980-02-03' }, today: '2026-12-01' })).toEqual([]);
  });

  it('accepts numbers from the previous note, context and template, and ignores list numbers, headings and codes', () => {
    const t = '[patient] the cough is better .';
    const extra = { previousNote: 'Lisinopril 10 mg daily.', context: 'A1c 7.2 last month.', template: 'Problem 1\nProblem 2' };
    expect(flagged('## 1. Plan\n\n1. Continue lisinopril 10 mg daily.\n2. A1c 7.2.\n\n**Problem 2:** cough, COVID-19 vaccine due, L4-L5 disc, normal S1 S2.', t, extra)).toEqual([]);
  });

  it('checks the structured form too, and checking twice changes nothing', () => {
    const t = '[patient] my right knee hurts .';
    const once = checkFidelity({ markdown: 'Left knee pain.', json: { Subjective: 'Left knee pain.', sections: [{ id: 's1', title: 'Left' }] } }, { transcript: t });
    expect(once.json).toEqual({ Subjective: 'Left knee ⚠[check: the transcript says right knee] pain.', sections: [{ id: 's1', title: 'Left' }] });
    const twice = checkFidelity({ markdown: once.markdown, json: once.json! }, { transcript: t });
    expect(twice.markdown).toBe(once.markdown);
    expect(twice.review).toEqual([]);
    expect(reviewMarkersIn(once.markdown)).toEqual(['⚠[check: the transcript says right knee]']);
  });

  it('points each flag at its marker in the markdown, with the section it is in', () => {
    const note = check('## Plan\n\nMetformin 5000 mg daily.', '[patient] metformin five hundred milligrams daily .');
    const [flag] = note.review;
    expect(note.markdown.slice(flag!.position.start, flag!.position.end)).toBe('⚠[check: removed, the transcript gives Metformin 500 mg]');
    expect(flag).toMatchObject({ section: 'Plan', position: { line: 3 } });
  });

  it('leaves numbers alone where the sources are in a language whose number words it cannot read', () => {
    expect(flagged('Toma metformina 500 mg. Tos desde hace 3 días.', 'El paciente toma quinientos miligramos de metformina y tiene tos desde hace tres días.')).toEqual([]);
  });

  it('counts unsupported numbers for the evaluation: stated, unclear and wrong-unit numbers, not dates or sides', () => {
    const t = "[patient] six hundred six hundred milligrams of guaifenesin , we'll see . five milligrams , and my left knee .";
    expect(unsupportedNumbers('Guaifenesin 60600 mg. Patch 5 mg. Right knee. 2026-01-01.', { transcript: t })).toEqual([
      { kind: 'dose', text: '60600 mg', reason: 'the transcript gives Guaifenesin 600 mg, 0.5 mg' },
      { kind: 'dose', text: '5 mg', reason: 'unclear in the transcript (a sentence break or a decimal point): 0.5 or 5' },
    ]);
  });
});

describe('fidelity: a removed list item leaves the sentence whole', () => {
  // A denial of a symptom nobody asked about is removed (fidelity-checks: negation not discussed).
  const t = '[doctor] any burning when you pee ?\n[patient] no .\n[doctor] headaches ?\n[patient] no .';
  const cases: [string, string][] = [
    ['He denies dysuria, chest pain and headache. Sleeps well.', 'He denies dysuria and headache. ⚠'],
    ['He denies dysuria, headache and chest pain.', 'He denies dysuria and headache. ⚠'],
    ['He denies chest pain, dysuria and headache.', 'He denies dysuria and headache. ⚠'],
  ];
  it('leaves a marker in place where the comma ends a statement rather than a list ("No chest pain, cough since Monday")', () => {
    const checked = check('No chest pain, cough since Monday.', '[patient] i have had a cough since monday .\n[doctor] any burning when you pee ?\n[patient] no .');
    expect(checked.markdown).not.toMatch(/^No cough/);
    expect(checked.review.map((r) => r.text)).toContain('chest pain');
  });

  for (const [note, starts] of cases) {
    it(`"${note}" reads "${starts}…", the marker after the sentence and pointed at`, () => {
      const checked = check(note, t);
      expect(checked.markdown.startsWith(starts)).toBe(true);
      const [flag] = checked.review;
      expect(flag).toMatchObject({ kind: 'negation', text: 'chest pain', action: 'removed' });
      // The marker names the denial that went, so the denials kept beside it do not read as wrong.
      expect(checked.markdown.slice(flag!.position.start, flag!.position.end)).toBe('⚠[check: removed, the denial of chest pain (not discussed in the transcript)]');
      expect(check(checked.markdown, t).markdown).toBe(checked.markdown);
    });
  }
});

describe('fidelity: property', () => {
  const drugs = ['metformin', 'lisinopril', 'atorvastatin', 'amlodipine', 'gabapentin'];
  const symptoms = ['cough', 'fever', 'chest pain', 'nausea', 'headache', 'dizziness'];
  const frequencies = ['once a day', 'twice a day', 'three times a day', 'at bedtime', 'as needed'];
  const words = (n: number): string => numberToWords(n);
  const sentence = fc.oneof(
    fc.tuple(fc.constantFrom(...drugs), fc.integer({ min: 1, max: 2000 }), fc.constantFrom(...frequencies))
      .map(([d, n, f]) => `i take ${d} ${words(n)} milligrams ${f} .`),
    fc.tuple(fc.integer({ min: 90, max: 180 }), fc.integer({ min: 50, max: 110 })).map(([s, d]) => `your blood pressure is ${words(s)} over ${words(d)} .`),
    fc.tuple(fc.integer({ min: 96, max: 103 }), fc.integer({ min: 0, max: 9 })).map(([w, f]) => `your temperature is ${words(w)} point ${words(f)} .`),
    fc.tuple(fc.constantFrom('left', 'right'), fc.constantFrom('knee', 'shoulder', 'ankle', 'hip')).map(([s, p]) => `my ${s} ${p} hurts .`),
    fc.tuple(fc.constantFrom(...symptoms), fc.integer({ min: 1, max: 30 })).map(([s, n]) => `i have had ${s} for ${words(n)} days .`),
    fc.constantFrom(...symptoms).map((s) => `i do not have any ${s} .`),
  );

  it('a note made only of transcript sentences, numbers written as digits, has no flags but its register', () => {
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (said, picks) => {
        const transcript = said.map((s, k) => `[${k % 2 ? 'doctor' : 'patient'}] ${s}`).join('\n');
        const note = picks.map((p) => normaliseNumbers(said[p % said.length]!)).join('\n');
        const result = check(note, transcript);
        // Every fact is supported; a line copied verbatim that talks to the patient ("your blood pressure") is flagged by the register gate.
        expect(result.review.filter((r) => r.kind !== 'register')).toEqual([]);
        expect(result.review.filter((r) => r.kind === 'register')).toHaveLength(note.split('\n').filter((l) => /\byour\b/.test(l)).length);
        expect(result.markdown.replace(/ ⚠\[check: reads as conversation \([a-z ]+\)\]/g, '')).toBe(note);
      }),
      { numRuns: 150 },
    );
  });
});

/**
 * False flags a physician reading of tuning-split notes found (6 of the set's 7 flags): "type two diabetes" said
 * in words, and a side said after the body part ("elbows bilaterally"). Written for these tests.
 */
describe('fidelity: a diagnosis type said in words, a side said after its part', () => {
  it('reads "type two diabetes" as type 2 diabetes, and still flags a type never said', () => {
    expect(flagged('PMH: type 2 diabetes mellitus.', '[doctor] she has a history of type two diabetes and hypertension .')).toEqual([]);
    expect(flagged('PMH: type 1 diabetes mellitus.', '[doctor] he has type one diabetes .')).toEqual([]);
    expect(flagged('PMH: type 2 diabetes mellitus.', '[doctor] she has a history of diabetes .').map(([k]) => k)).toEqual(['diagnosis']);
  });

  it('reads "your elbows bilaterally" as both elbows, and still flags a side never said of the part', () => {
    const t = '[doctor] you do have some pain to palpation of your elbows bilaterally .';
    expect(flagged('Bilateral elbows: pain to palpation.', t)).toEqual([]);
    expect(flagged('Right elbow: pain to palpation.', t).map(([k]) => k)).toEqual(['laterality']);
  });
});
