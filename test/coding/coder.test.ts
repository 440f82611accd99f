import { describe, expect, it } from 'vitest';
import { createCodeTable, loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';
import type { CodeSetFile } from '../../main/engines/coding/cms-parser.js';

const table = loadCodeTable()!;
const lexicon = readCodingLexicon();
const coder = createIcdCoder(table, lexicon);
const codes = (text: string): string[] => coder.analyze(text).codes.map((c) => c.code);

describe('embedded ICD-10-CM coder', () => {
  it('finds every anchor of the synonym index in the FY2021 table', () => {
    expect(coder.warnings).toEqual([]);
    for (const concept of lexicon.concepts) {
      for (const spec of concept.codes) expect(spec.split('|').some((c) => table.get(c)), `${concept.id}: ${spec}`).toBe(true);
      for (const spec of [concept.history, concept.family]) if (spec && spec !== 'current' && spec !== 'none') expect(table.get(spec)?.billable, `${concept.id}: ${spec}`).toBe(true);
    }
    for (const rule of lexicon.combinations) expect(table.get(rule.by)?.billable, rule.by).toBe(true);
  });

  it('codes the most specific code the words support, and the unspecified one only when they say no more', () => {
    expect(codes('Type 2 diabetes with diabetic chronic kidney disease, stage 3a.')).toEqual(['E11.22', 'N18.31']);
    expect(codes('Left knee osteoarthritis.')).toEqual(['M17.12']);
    expect(codes('Osteoarthritis of the right knee.')).toEqual(['M17.11']);
    expect(codes('Knee osteoarthritis.')).toEqual(['M17.9']);
    expect(codes('Osteoarthritis.')).toEqual(['M19.90']);
    expect(codes('COPD exacerbation.')).toEqual(['J44.1']);
    expect(codes('COPD, stable.')).toEqual(['J44.9']);
    expect(codes('CKD 3b.')).toEqual(['N18.32']);
    expect(codes('Acute on chronic systolic heart failure.')).toEqual(['I50.23']);
    expect(codes('Right ankle sprain.')).toEqual(['S93.401A']);
    expect(codes('Migraine without aura, not intractable.')).toEqual(['G43.009']);
  });

  it('never codes a denied, ruled-out or uncertain finding as the patient\'s condition', () => {
    expect(codes('Patient denies chest pain or shortness of breath.')).toEqual([]);
    expect(codes('Rule out pulmonary embolism.')).toEqual([]);
    expect(codes('No evidence of pneumonia.')).toEqual([]);
    expect(codes('Possible early Parkinson disease.')).toEqual([]);
    const result = coder.analyze('No fever or cough. Hypertension follow-up.');
    expect(result.codes.map((c) => c.code)).toEqual(['I10']);
    expect(result.setAside.map((s) => s.why)).toEqual(['negated', 'negated']);
  });

  it('does not code conditions named as risks, in general statements or only in counselling', () => {
    expect(codes('ASSESSMENT AND PLAN\nSurgery scheduled. The risks of surgery including infection, stroke, heart attack and death were discussed.')).toEqual([]);
    expect(codes('ASSESSMENT AND PLAN\nTick bite. I explained that Lyme disease can cause problems with other organs. Titers will be obtained to determine if he has Lyme disease.')).toEqual([]);
    expect(codes('ASSESSMENT AND PLAN\nHypertension.\n- Patient Education and Counseling: we discussed that untreated sleep apnea raises blood pressure.')).toEqual(['I10']);
    // Mentioned as a problem elsewhere, the counselling text adds evidence.
    expect(coder.analyze('ASSESSMENT AND PLAN\nObstructive sleep apnea.\n- Patient Education and Counseling: CPAP for obstructive sleep apnea.').codes[0]!.evidence.length).toBe(2);
  });

  it('reads words that only look like negation as part of the finding', () => {
    expect(codes('Stage III non-small cell lung cancer.')).toEqual(['C34.90']);
    expect(codes('Right non-healing diabetic foot ulcer. Type 2 diabetes.')).toEqual(['E11.621', 'L97.519']);
  });

  it('turns history and family history into Z codes, and a relative\'s disease is never the patient\'s', () => {
    expect(codes('Family history of colon cancer.')).toEqual(['Z80.0']);
    expect(codes('Her father had coronary artery disease.')).toEqual(['Z82.49']);
    expect(codes('History of myocardial infarction.')).toEqual(['I25.2']);
    expect(codes('History of stroke without residual deficits.')).toEqual(['Z86.73']);
    expect(codes('Former smoker.')).toEqual(['Z87.891']);
    // A chronic condition in the history is still the patient's.
    expect(codes('History of hypertension.')).toEqual(['I10']);
  });

  it('applies the table\'s conventions: combination codes, use additional code, symptoms a diagnosis explains', () => {
    const ckd = coder.analyze('Hypertension. Chronic kidney disease stage 4.').codes;
    expect(ckd.map((c) => c.code)).toEqual(['I12.9', 'N18.4']);
    expect(ckd[0]!.related).toContain('N18.4');
    expect(ckd[0]!.why.join(' ')).toMatch(/presumed linked/);
    const dm = coder.analyze('Chronic kidney disease stage 3a. Type 2 diabetes.').codes;
    // "Code first" on N18: the diabetic kidney disease comes before the stage although written after it.
    expect(dm.map((c) => c.code)).toEqual(['E11.22', 'N18.31']);
    expect(codes('Pneumonia with fever and cough.')).toEqual(['J18.9']);
    expect(codes('Cough and fever.')).toEqual(['R05', 'R50.9']);
    expect(codes('Uncontrolled type 2 diabetes on insulin.')).toEqual(['E11.65', 'Z79.4']);
  });

  it('ranks the assessment\'s first problem first and names the edition on every code', () => {
    const result = coder.analyze('ASSESSMENT AND PLAN\n1. Hyperlipidemia.\n2. Hypertension.\nFamily history of breast cancer.');
    expect(result.codes.map((c) => [c.code, c.rank])).toEqual([['E78.5', 1], ['I10', 2], ['Z80.3', 3]]);
    expect(new Set(result.codes.map((c) => c.edition))).toEqual(new Set(['FY2021']));
  });

  it('gives exact evidence spans in code points, also after characters outside the BMP', () => {
    const text = '🩺 Résumé 𝒳: left knee osteoarthritis 😀 and HTN.';
    const result = coder.analyze(text);
    const points = [...text];
    expect(result.codes.length).toBe(2);
    for (const c of result.codes) for (const e of c.evidence) expect(points.slice(e.start_char, e.end_char).join('')).toBe(e.text);
    expect(result.codes.find((c) => c.code === 'I10')!.evidence[0]!.text).toBe('HTN');
  });

  it('follows a newer edition: a code that became a category is coded by its new children', () => {
    const line = (code: string, billable: boolean, title: string): string => `${code}\t${billable ? 1 : 0}\t${title}`;
    const fy2022: CodeSetFile = {
      format: 'clindoc-icd10cm/1', system: 'ICD-10-CM', edition: 'FY2022',
      source: { publisher: 'test', order: { file: 'order.txt', sha256: '0', lines: 4, billable: 3 } },
      codes: [line('R05', false, 'Cough'), line('R051', true, 'Acute cough'), line('R053', true, 'Chronic cough'), line('R059', true, 'Cough, unspecified'), line('I10', true, 'Essential (primary) hypertension')].join('\n'),
      notes: {},
    };
    const newer = createIcdCoder(createCodeTable(fy2022), lexicon);
    expect(newer.analyze('Cough.').codes.map((c) => [c.code, c.edition])).toEqual([['R05.9', 'FY2022']]);
    expect(newer.analyze('Chronic cough for three months.').codes.map((c) => c.code)).toEqual(['R05.3']);
    expect(newer.warnings.length).toBeGreaterThan(0);
  });

  it('reads a run-on text with thousands of findings and no full stop in one pass (within the test timeout)', () => {
    expect(codes('denies chest pain, '.repeat(5000))).toEqual([]);
    const htn = coder.analyze('HTN '.repeat(10_000)).codes;
    expect(htn.map((c) => c.code)).toEqual(['I10']);
    expect(htn[0]!.evidence.length).toBeLessThanOrEqual(5);
    expect(codes('type 2 diabetes with '.repeat(3000))).toEqual(['E11.9']);
  });

  it('answers text with nothing to code, or in another language, with no codes', () => {
    expect(codes('The patient came in today and we talked about the weather and her garden.')).toEqual([]);
    expect(codes('Paciente con dolor de cabeza desde hace tres días. Niega fiebre.')).toEqual([]);
    expect(codes('患者主诉头痛三天，无发热。')).toEqual([]);
    expect(codes('')).toEqual([]);
  });
});
