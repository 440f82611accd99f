import { describe, expect, it } from 'vitest';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';

// Sentences written for these tests in the way outpatient assessments are worded (none is from the ACI-Bench notes).
const coder = createIcdCoder(loadCodeTable()!, readCodingLexicon());
const codes = (text: string): string[] => coder.analyze(text).codes.map((c) => c.code);
const ap = (...lines: string[]): string => `ASSESSMENT AND PLAN\n${lines.join('\n')}`;

describe('outpatient coding conventions', () => {
  it('codes an injury by kind, site and side with the initial-encounter 7th character', () => {
    expect(codes(ap('1. Left knee LCL sprain.'))).toEqual(['S83.422A']);
    // A strained ligament is a sprain in the table's words; a lumbar strain is of muscle and tendon.
    expect(codes(ap('1. Left knee MCL strain.'))).toEqual(['S83.412A']);
    expect(codes(ap('Lumbar strain.'))).toEqual(['S39.012A']);
    // A fracture not said to be open is closed, not said to be nondisplaced is displaced.
    expect(codes(ap('Left lateral malleolar fracture. Surgery was discussed.'))).toEqual(['S82.62XA']);
    expect(codes(ap('Sprain of the left thumb interphalangeal joint.'))).toEqual(['S63.622A']);
  });

  it('takes the side and site a heading leaves out from the lines under it, and codes no injury without a site', () => {
    expect(codes(ap('1. Insect bite.', '- Medical Reasoning: There is a red ring around the bite on his left thigh.'))).toEqual(['S70.362A']);
    expect(codes(ap('Tick bite. He will watch for a rash.'))).toEqual([]);
  });

  it('codes the symptom, not a diagnosis the physician only believes, suspects or tests for', () => {
    const out = codes(ap('1. Right wrist pain.', '- Medical Reasoning: I believe this is a wrist sprain. X-ray ordered to rule out fracture.'));
    expect(out).toEqual(['M25.531']);
    expect(codes(ap('Viral syndrome. A COVID-19 test will be obtained.'))).not.toContain('U07.1');
    expect(codes(ap('Fatigue.', '- Patient Education: I asked him to be aware of diarrhea and report it.'))).not.toContain('R19.7');
  });

  it('codes the symptom, not a diagnosis the physician doubts, orders a test to look for, or the patient fears', () => {
    expect(codes(ap('1. Type 2 diabetes.', '- Medical Reasoning: I doubt this is diabetic neuropathy.'))).toEqual(['E11.9']);
    const out = codes(ap('1. Fatigue.', '- Plan: we will check a TSH for hypothyroidism. Low suspicion for anemia. She is worried about getting shingles. Pneumonia is less likely.'));
    expect(out).toEqual(['R53.83']);
    // A test for a condition the patient is known to have monitors it: still coded.
    expect(codes(ap('1. Hypothyroidism.', '- Plan: we will check a TSH for her hypothyroidism.'))).toEqual(['E03.9']);
  });

  it('does not code a diagnosis whose own lines order tests to confirm it', () => {
    expect(codes(ap('1. Chronic hepatitis C.', '- Medical Reasoning: Antibody positive on screening.', '- Plan: viral load ordered to confirm the diagnosis.')).some((c) => c.startsWith('B1'))).toBe(false);
    expect(codes(ap('1. Chronic hepatitis C.', '- Plan: start treatment.'))).toEqual(['B18.2']);
  });

  it('codes a past or family condition only where the assessment relies on it', () => {
    expect(codes(ap('She has had a headache for two days, better with ibuprofen. Her mother has migraines. Ibuprofen as needed.'))).toEqual(['R51.9']);
    expect(codes('ASSESSMENT\nSymptomatic macromastia.\nPLAN\nAn extensive discussion of the surgery was held with consideration of her age, body habitus and smoking history.')).not.toContain('Z87.891');
    expect(codes(ap('Rectal bleeding.', 'We will get a colonoscopy given her family history of colon cancer.'))).toContain('Z80.0');
  });

  it('codes smoking named as history as history, never as current dependence', () => {
    const out = codes(ap('Lung nodule. Given his smoking history, a CT in 3 months.'));
    expect(out).toContain('Z87.891');
    expect(out.some((c) => c.startsWith('F17'))).toBe(false);
  });

  it('reads a glucose or A1c stated high in the plan as diabetes with hyperglycemia', () => {
    expect(codes(ap('1. Type 2 diabetes.', '- Medical Reasoning: Her hemoglobin A1c was elevated at 9.1 today.'))).toContain('E11.65');
    expect(codes(ap('1. Type 2 diabetes.', '- Medical Reasoning: Her hemoglobin A1c is not elevated.'))).toEqual(['E11.9']);
  });

  it('ranks the problems named as headings in their order before conditions named in passing', () => {
    const text = ap('Mrs. Doe is a 60-year-old with a history significant for hypertension and type 2 diabetes, seen today for a wrist injury.', '', 'Left wrist sprain.', '- Ice and a brace.', '', 'Hypertension.', '- Continue lisinopril.');
    const out = coder.analyze(text).codes;
    expect(out[0]!.code).toBe('S63.502A');
    expect(out[1]!.code).toBe('I10');
  });

  it('lists a general examination first, with abnormal findings only when the assessment records one', () => {
    const stable = coder.analyze(ap('Seen for her annual exam.', '', 'Hypertension.', '- Medical Reasoning: well controlled on lisinopril.', '- Medical Treatment: continue lisinopril.', '', 'Health maintenance.', '- A mammogram is due and was ordered.')).codes;
    expect(stable.map((c) => c.code)).toEqual(['Z00.00', 'I10']);
    const found = coder.analyze(ap('Seen for his annual physical.', '', 'Hypertension.', '- Medical Reasoning: stable.', '- Additional Testing: an echocardiogram to evaluate his murmur.')).codes;
    expect(found[0]!.code).toBe('Z00.01');
    expect(found[0]!.rule).toMatch(/with abnormal findings/);
    // A result that shows nothing is no finding.
    expect(codes(ap('Annual physical.', '', 'Hypertension.', '- The x-ray showed no fracture. Continue lisinopril.'))[0]).toBe('Z00.00');
  });

  it('ranks a diagnosis where the symptom heading it explains stands, and narrows a back pain heading to the level its lines name', () => {
    const out = codes(ap('He has type 2 diabetes and depression.', '', 'Hyperglycemia.', '- Medical Reasoning: his A1c was elevated at 9.', '', 'Depression.', '- Continue sertraline.'));
    expect(out.slice(0, 2)).toEqual(['E11.65', 'F32.9']);
    const back = coder.analyze(ap('Back pain.', '- Medical Reasoning: her lumbar spine x-ray was unremarkable.')).codes;
    expect(back.map((c) => c.code)).toEqual(['M54.5']);
    expect(back[0]!.rule).toMatch(/"low" from the lines under its heading/);
    expect(codes(ap('Back pain.', '- Ibuprofen as needed.'))).toEqual(['M54.9']);
  });

  it('reads "or" in a title as alternatives and keeps the side and site the text names', () => {
    // "Rotator cuff tear or rupture of left shoulder": the text needs one of "tear" and "rupture".
    expect(codes(ap('1. Left rotator cuff tear.'))).toEqual(['M75.102']);
    // Tendinopathy is no tear: the table's other shoulder lesions; a left tear beside it is a second condition.
    expect(codes(ap('1. Right shoulder rotator cuff tendinopathy.', '2. Left rotator cuff tear.'))).toEqual(['M75.81', 'M75.102']);
    // "Malignant neoplasm of upper lobe, right bronchus or lung", ranked as the heading it is.
    expect(codes(ap('1. Right upper lobe lung cancer.', '2. Hypertension.'))).toEqual(['C34.11', 'I10']);
    expect(codes(ap('1. Lung cancer.'))).toEqual(['C34.90']);
  });

  it('codes a finding worked up for itself beside the diagnoses, and device and transplant status only while current', () => {
    const out = coder.analyze(ap('Hypertension.', '- Additional Testing: an echocardiogram to evaluate her murmur.', 'Status post renal transplant.', '- Continue tacrolimus.')).codes;
    expect(out.map((c) => c.code)).toEqual(['I10', 'R01.1', 'Z94.0']);
    expect(out[1]!.rule).toMatch(/works up for itself/);
    // A murmur that only supports a diagnosis stays out.
    expect(codes(ap('Hypertension.', '- She has a soft murmur.'))).toEqual(['I10']);
    expect(codes(ap('Type 1 diabetes.', '- He will continue the insulin pump.'))).toEqual(['E10.9', 'Z96.41']);
    expect(codes(ap('Type 1 diabetes.', '- He used to be on an insulin pump; now on injections.'))).toEqual(['E10.9']);
  });

  it('finds a one-word table term that names one condition, and none from counselling', () => {
    expect(codes(ap('Costochondritis.', '- Ibuprofen.'))).toEqual(['M94.0']);
    expect(codes(ap('Viral infection.', '- I counseled the mother to avoid honey because of botulism.'))).toEqual(['B34.9']);
  });

  it('ranks the reason for the visit first in a paragraph assessment, then what takes more of the visit', () => {
    const text = ap('Mr. Doe has a history of hypertension and seasonal allergies. He is seen today for asthma, which is better on his inhaler. We talked at length about his reflux: it wakes him at night, the reflux follows late meals, and omeprazole will go up for the reflux.');
    // Seasonal allergic rhinitis (J30.2) lists "allergic rhinitis with asthma (J45.909)" as Excludes1: the asthma code stands for both.
    const out = coder.analyze(text).codes;
    expect(out.map((c) => c.code)).toEqual(['J45.909', 'K21.9', 'I10']);
    expect(out[0]!.rule).toMatch(/Excludes1: J30\.2 is not coded beside it/);
  });

  it('codes an adenoma as the benign neoplasm of its site, and a vaccine only when given at this visit', () => {
    expect(codes(ap('1. Pituitary adenoma.', '- Surgery was discussed.'))).toEqual(['D35.2']);
    expect(codes(ap('1. Adrenal adenoma.', '- Repeat CT in a year.'))).toEqual(['D35.00']);
    expect(codes(ap('Health maintenance.', '- Medical Treatment: he will receive his tetanus vaccine in office today.'))).toEqual(['Z23']);
    expect(codes(ap('Health maintenance.', '- He is due for a flu shot and declined it.'))).toEqual([]);
  });

  it('explains every code: the rule or convention that chose it, and evidence exact in the text', () => {
    const text = ap('1. Hypertension with chronic kidney disease stage 3a.', '2. Right knee MCL sprain.');
    const out = coder.analyze(text).codes;
    expect(out.find((c) => c.code === 'I12.9')!.rule).toMatch(/^I12\.9: hypertension with chronic kidney disease/);
    expect(out.find((c) => c.code === 'S83.411A')!.rule).toMatch(/7th character A/);
    for (const c of out) {
      expect(c.rule.startsWith(`${c.code}: `)).toBe(true);
      for (const e of c.evidence) expect(text.slice(e.start_char, e.end_char)).toBe(e.text);
    }
  });
});

describe('coding a conversation through the encounter understanding', () => {
  const transcript = [
    '[doctor] hi , what brings you in today ?',
    '[patient] my right knee hurts since i twisted it , and i do not have any chest pain .',
    '[doctor] my mother had breast cancer , you said ?',
    '[patient] yes .',
    '[doctor] so for your first problem , your right knee pain , we will get an x-ray and start ibuprofen .',
    '[doctor] for your second problem , your hypertension , continue lisinopril 20 mg daily .',
    '[patient] okay .',
  ].join('\n');

  it('codes the problems the facts confirm, with evidence spans in the transcript, and nothing denied or a relative\'s', () => {
    const out = coder.analyzeTranscript(transcript).codes;
    expect(out.map((c) => c.code)).toEqual(['M25.561', 'I10']);
    for (const c of out) {
      expect(c.evidence.length).toBeGreaterThan(0);
      for (const e of c.evidence) expect(transcript.slice(e.start_char, e.end_char)).toBe(e.text);
      expect(c.rule).toMatch(/the encounter's confirmed problem/);
    }
  });
});

describe('a conversation that names no diagnosis', () => {
  // Written for this test: the physician examines and plans but never names what the patient has.
  const transcript = [
    '[doctor] good to see you again .',
    '[patient] my shoulder has been hurting for two weeks since i moved some boxes .',
    '[patient] i also had a headache yesterday .',
    '[doctor] okay , on your left shoulder exam you have limited range of motion .',
    '[doctor] we will send you to physical therapy for six weeks and you can keep taking tylenol .',
  ].join('\n');

  it("codes the chief complaint with the side the encounter gives its site, and says why", () => {
    const out = coder.analyzeTranscript(transcript).codes;
    expect(out.map((c) => c.code)).toEqual(['M25.512']);
    expect(out[0]!.rule).toMatch(/no diagnosis established: the chief complaint "shoulder pain"/);
    for (const e of out[0]!.evidence) expect(transcript.slice(e.start_char, e.end_char)).toBe(e.text);
  });

  it('codes the symptom at the site of a diagnosis the physician only suspects, in its place', () => {
    const suspected = [
      '[patient] my left ankle has been hurting since i stepped off a curb .',
      '[doctor] so for my assessment and plan , for your ankle you probably have an ankle sprain , so we will get an x-ray .',
      '[doctor] for your second problem , your hypertension , continue lisinopril 20 mg daily .',
    ].join('\n');
    expect(coder.analyzeTranscript(suspected).codes.map((c) => c.code)).toEqual(['M25.572', 'I10']);
  });

  it("reads diabetes with hyperglycemia from the clinician's words on the problem, and not from a negated state", () => {
    const said = (state: string): string[] => coder.analyzeTranscript([
      "[doctor] okay , let's talk about my assessment and plan .",
      `[doctor] for your type 2 diabetes , your blood sugar is ${state} , so we will increase the metformin to 1000 mg twice a day .`,
    ].join('\n')).codes.map((c) => c.code);
    // Metformin, increased, is long-term oral hypoglycemic use: E11's "use additional code" adds Z79.84.
    expect(said('a little bit out of control')).toEqual(['E11.65', 'Z79.84']);
    expect(said('not running high')).toEqual(['E11.9', 'Z79.84']);
  });

  it('lists a routine examination the visit is for first, beside the problems it addressed', () => {
    const annual = coder.analyzeTranscript([
      '[doctor] mr smith is a 60-year-old male with hypertension who presents for his annual exam .',
      "[doctor] okay , let's talk about my assessment and plan .",
      '[doctor] for your hypertension , continue lisinopril 20 mg daily .',
    ].join('\n')).codes.map((c) => c.code);
    expect(annual).toEqual(['Z00.00', 'I10']);
    // An abnormal finding of the examination makes it one "with abnormal findings".
    const found = coder.analyzeTranscript([
      '[doctor] mr smith is a 60-year-old male with hypertension who presents for his annual exam .',
      '[doctor] on exam of your right elbow , there is some swelling and redness .',
      "[doctor] okay , let's talk about my assessment and plan .",
      '[doctor] for your hypertension , continue lisinopril 20 mg daily .',
    ].join('\n')).codes.map((c) => c.code);
    expect(found[0]).toBe('Z00.01');
  });

  it('codes the named diagnosis instead when the physician gives one, with the complaint\'s side', () => {
    const named = `${transcript}\n[doctor] so you have what we call a rotator cuff strain .`;
    expect(coder.analyzeTranscript(named).codes.map((c) => c.code)).toEqual(['S46.012A']);
  });
});

describe('the word "diabetic" before a complication', () => {
  it('codes the diabetes (type 2 when the type is not stated) with the complication\'s combination code', () => {
    expect(codes(ap('Left diabetic foot ulcer with fat layer exposed.'))).toEqual(['E11.621', 'L97.522']);
    // A stated type 1 diabetes takes over the generic mention.
    expect(codes(ap('1. Type 1 diabetes.', '2. Diabetic foot ulcer of the right heel.'))).toContain('E10.621');
  });
});

describe('diabetes named in a conversation (written for these tests)', () => {
  const said = (...lines: string[]): string[] => coder.analyzeTranscript(lines.join('\n')).codes.map((c) => c.code);

  it('codes hyperglycemia in a patient with type 2 diabetes as the diabetes with hyperglycemia, and insulin use beside it', () => {
    expect(said(
      '[doctor] she is a 50-year-old female with a past medical history significant for type 2 diabetes who is here for follow-up .',
      "[doctor] okay , let's talk about my assessment and plan .",
      '[doctor] for your hyperglycemia , your sugars have been high , so we will increase the lantus to 20 units at night .',
    )).toEqual(['E11.65', 'Z79.4']);
  });

  it('reads "type i diabetes" as a speech recogniser writes type one, and a diagnosis said after the symptom that opened the problem', () => {
    expect(said(
      '[doctor] he is a 60-year-old male with a past medical history significant for type i diabetes and congestive heart failure .',
      "[doctor] okay , let's talk about my assessment and plan .",
      '[doctor] for your first problem of your shortness of breath , you are in a heart failure exacerbation , so we will start lasix 40 mg a day .',
      "[doctor] for your second problem of your type i diabetes , um , let's continue your current insulin regimen .",
    )).toEqual(['I50.9', 'E10.9']);
  });
});

describe('a diagnosis the clinician thinks likely (written for these tests)', () => {
  const said = (history: string, assessment: string): string[] => coder.analyzeTranscript([
    `[doctor] he is a 60-year-old male with a past medical history significant for ${history} .`,
    '[patient] i have been short of breath for a week .',
    "[doctor] okay , let's talk about my assessment and plan .",
    `[doctor] for your first problem of your shortness of breath , ${assessment} , so we will start lasix 40 mg a day .`,
  ].join('\n')).codes.map((c) => c.code);

  it('codes the symptom when the clinician only thinks it, and the condition when the history already has it', () => {
    expect(said('hypertension', 'i think that you are in a heart failure exacerbation')).toEqual(['R06.02']);
    expect(said('congestive heart failure', 'i think that you are in a heart failure exacerbation')).toEqual(['I50.9']);
  });
});
