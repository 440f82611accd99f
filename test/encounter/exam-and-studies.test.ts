import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';
import { findingPhrase } from '../../main/services/encounter/exam.js';

/**
 * An exam narrated as clinicians speak it and a study read off the screen over several sentences
 * (a reading of a tuning-split note found most of such an exam and the x-ray missing, and the
 * x-ray's "no fracture" written as a problem). The transcript is written for these tests.
 */
const VISIT = [
  '[doctor] hi , how are you doing today ?',
  '[patient] not great , my back hurts .',
  '[doctor] when did it start ?',
  '[patient] about a week ago , after i lifted a couch .',
  '[doctor] any numbness or tingling in your legs ?',
  '[patient] no .',
  '[doctor] any problems with your bladder or bowels ?',
  "[patient] no , nothing like that .",
  "[doctor] okay , let's do a quick exam .",
  '[doctor] so on physical examination , your heart sounds great . it\'s a regular rate and rhythm . your lungs are clear .',
  '[doctor] on your back exam , you do have some tenderness to palpation of the left lumbar spine along with decreased flexion of the back , and you have a positive straight leg on the left , or positive straight leg raise on the left .',
  '[doctor] now let me look at your results . this is an x-ray of your lumbar spine . there is good bony alignment . i don\'t see any fracture or anything like that .',
  '[doctor] so for your back pain , i think you have a lumbar strain . we will start meloxicam 15 mg once a day .',
].join('\n');

describe('an exam narrated in the clinician\'s own words', () => {
  const facts = understandEncounter({ transcript: VISIT });
  const findings = facts.exam.map((e) => [e.system, e.finding, e.laterality ?? '-']);

  it('reads "it\'s a regular rate and rhythm", "heart sounds great", and each finding listed "along with" another', () => {
    expect(findings).toContainEqual(['Cardiovascular', 'regular rate and rhythm', '-']);
    expect(findings).toContainEqual(['Cardiovascular', 'heart is normal', '-']);
    expect(findings).toContainEqual(['Musculoskeletal', 'tenderness to palpation of left lumbar spine', 'left']);
    expect(findings).toContainEqual(['Musculoskeletal', 'decreased flexion of back', '-']);
  });

  it('keeps the second wording of a finding restated with "or", not both', () => {
    const leg = findings.filter((f) => /straight leg/.test(f[1]!));
    expect(leg).toEqual([['Musculoskeletal', 'positive straight leg raise on left', 'left']]);
  });

  it('does not open the assessment at an exam finding said with "you have"', () => {
    expect(facts.problems.map((p) => p.name)).toEqual(['lumbar strain']);
  });

  it('reads a study put up and described over the next sentences as its result, and no problem "fracture ruled out"', () => {
    expect(facts.results.map((r) => [r.test, r.finding])).toEqual([['x-ray', 'good bony alignment, no fracture']]);
    expect(facts.problems.some((p) => /fracture/.test(p.name))).toBe(false);
  });

  it('writes the exam without cutting a region out of a term ("straight leg raise", "lumbar spine")', () => {
    const note = writeNoteSync({ transcript: VISIT, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).toMatch(/straight leg raise/);
    expect(note).toMatch(/left lumbar spine/);
    expect(note).toMatch(/X-ray: Good bony alignment, no fracture\./);
  });
});

describe('a side said once against the rest, a study judged before its name, an injury named without its site', () => {
  const visit = [
    "[doctor] she's here for left leg pain .",
    '[doctor] what happened ?',
    '[patient] i fell off a ladder and hit my right leg on the way down .',
    '[doctor] does it hurt to walk ?',
    '[patient] yes , my right leg is very sore .',
    "[doctor] okay , let's do a quick exam .",
    '[doctor] on my exam , you have tenderness of the lateral aspect of your right upper leg .',
    '[doctor] so my impression is that you probably have a contusion .',
    "[doctor] i looked at the x-ray , and it's essentially a normal x-ray .",
    "[doctor] i'm going to start you on mobic 15 mg once a day .",
  ].join('\n');
  const facts = understandEncounter({ transcript: visit });

  it('follows the side said most and lists the slip for the physician', () => {
    expect(facts.reasonForVisit?.term).toBe('right leg pain');
    expect(facts.unplaced.some((u) => /side said both ways/.test(u.reason) && /left leg pain/.test(u.text))).toBe(true);
  });

  it('keeps a side said consistently', () => {
    const same = understandEncounter({ transcript: visit.replace("she's here for left leg pain", "she's here for right leg pain") });
    expect(same.reasonForVisit?.term).toBe('right leg pain');
    expect(same.unplaced.some((u) => /side said both ways/.test(u.reason))).toBe(false);
  });

  it('reads "a normal x-ray" as the x-ray normal', () => {
    expect(facts.results.map((r) => [r.test, r.interpretation])).toEqual([['x-ray', 'normal']]);
  });

  it('names the contusion by the site the visit is for', () => {
    expect(facts.problems.map((p) => [p.name, p.laterality, p.certainty])).toEqual([['leg contusion', 'right', 'probable']]);
  });
});

describe('verb agreement in the patient\'s account', () => {
  it('adds -s to a present base form only: "she gave" and "he laid" stay past, "I put ice on it" stays past', async () => {
    const { agree } = await import('../../main/services/encounter/narrative.js');
    expect(agree('she gave him some numbing medicine.')).toBe('she gave him some numbing medicine.');
    expect(agree('he laid back down.')).toBe('he laid back down.');
    expect(agree('she put ice on it.')).toBe('she put ice on it.');
    expect(agree('he take the pills every day.')).toBe('he takes the pills every day.');
    expect(agree('she have pain.')).toBe('she has pain.');
  });
});

describe('what a tenth reading and a tuning note found (written for these tests)', () => {
  const visit = (lines: string[]): string => ['[doctor] what brings you in today ?', '[patient] my left shoulder hurts when i lift weights .', ...lines].join('\n');

  it('reads no exam finding from vital signs read out in the exam', () => {
    const facts = understandEncounter({ transcript: visit(["[doctor] okay , let's do a quick exam .", "[doctor] on exam , it's about 122/76 , heart rate is appropriate at 82 beats per minute . there is a grade 2/6 systolic ejection murmur ."]) });
    expect(facts.exam.map((e) => e.finding)).toEqual(['grade 2/6 systolic ejection murmur']);
  });

  it('names the complaint the assessment says the patient has as its problem', () => {
    const facts = understandEncounter({ transcript: visit(["[doctor] okay , let's do a quick exam .", '[doctor] on exam , there is tenderness of the left shoulder .', "[doctor] let's talk about my assessment and plan for you , so you do have that left shoulder pain .", "[doctor] i'm going to refer you to physical therapy ."]) });
    expect(facts.problems.map((p) => [p.name, p.plan.map((i) => i.target)])).toEqual([['left shoulder pain', ['physical therapy']]]);
  });

  it('orders no study done before the visit ("we had to get an x-ray before you came in, and it\'s normal"), and still orders one told to the patient', () => {
    const facts = understandEncounter({ transcript: visit(["[doctor] okay , let's do a quick exam .", '[doctor] on exam , there is tenderness of the left shoulder .', "[doctor] we had to get an x-ray of your shoulder before you came in , and it's normal .", "[doctor] let's talk about my assessment and plan for you , so you do have that left shoulder pain .", '[doctor] i want you to get an mri of your shoulder .']) });
    const ordered = [...facts.problems.flatMap((p) => p.plan), ...facts.plan].map((i) => i.target);
    expect(ordered).toContain('mri');
    expect(ordered).not.toContain('x-ray');
  });

  it('keeps "a possible blockage" a description, not a problem beside the angina', () => {
    const facts = understandEncounter({ transcript: visit(["[doctor] okay , let's do a quick exam .", '[doctor] on exam , your heart is regular .', "[doctor] so what i think is going on is that you have unstable angina , and it looks like a blockage in one of your arteries .", "[doctor] we'll start aspirin 81 mg daily ."]) });
    expect(facts.problems.map((p) => p.name)).toEqual(['unstable angina']);
  });
});

/**
 * An exam said where the phases of the visit do not expect it (after a word of praise that reads
 * like the plan, or dictated after the visit), a dictated exam of the nervous system and the eyes,
 * and an abdomen examined by asking: each was left out of notes of the tuning split. The
 * transcripts are written for these tests.
 */
describe('an exam said out of its expected place, dictated, or asked region by region', () => {
  const findings = (transcript: string): string[][] => understandEncounter({ transcript }).exam.map((e) => [e.system, e.finding]);

  it('reads the exam the clinician turns to after a remark that sounded like the plan', () => {
    const f = findings([
      '[doctor] how have you been doing with the blood pressure ?',
      '[patient] pretty good , i take my pills most days .',
      '[doctor] your blood pressure today is 122 over 78 . i think you\'re doing a good job , so continue the current medication .',
      '[doctor] now i\'m just going to listen to your heart and lungs .',
      '[patient] sure .',
      '[doctor] your heart , i hear a soft two out of six systolic murmur , and your lungs sound nice and clear .',
      '[doctor] you do have some pain to palpation of the sinuses , so i think you have some congestion there .',
      '[doctor] hey dragon , show me the chest x-ray . the chest x-ray looks normal .',
      '[doctor] for your blood pressure , continue lisinopril 10 mg daily .',
    ].join('\n'));
    expect(f).toContainEqual(['Cardiovascular', 'soft 2/6 systolic murmur']);
    expect(f).toContainEqual(['Respiratory', 'lungs are clear']);
    expect(f).toContainEqual(['HEENT', 'pain to palpation of sinuses']);
    // The x-ray ends the exam: nothing after it is read as a finding.
    expect(f.some(([, text]) => /x-ray|lisinopril/.test(text!))).toBe(false);
  });

  it('reads an exam dictated after the visit, with a general appearance, the tone of the limbs and the genitalia', () => {
    const f = findings([
      '[doctor] we will get the ultrasound today and i will call you with the results .',
      '[patient_guest] okay , thank you .',
      '[doctor] physical exams show a well-nourished boy , who is slightly fussy when examined . he has mild hypotonia of the lower extremities . normal external male genitalia .',
    ].join('\n'));
    expect(f).toContainEqual(['General', 'well-nourished boy, who is slightly fussy when examined']);
    expect(f).toContainEqual(['Neurological', 'mild hypotonia of lower extremities']);
    expect(f).toContainEqual(['Genitourinary', 'normal external male genitalia']);
  });

  it('reads a dictated neurological and eye exam, keeping a list of qualifiers as one finding', () => {
    const f = findings([
      '[doctor] how long have you had the headaches ?',
      '[patient] a few months now .',
      '[doctor] let me take a good look at you . i will call out the details as i perform the examination .',
      '[doctor] the patient is alert , oriented to time , place , and person . no focal , motor , or sensory deficit in the upper or lower extremities .',
      '[doctor] pupils are equal and reactive . visual field testing reveals bitemporal hemianopia .',
    ].join('\n'));
    expect(f).toContainEqual(['Neurological', 'alert, oriented to time, place and person']);
    expect(f).toContainEqual(['Neurological', 'no focal, motor or sensory deficit in upper or lower extremities']);
    expect(f).toContainEqual(['HEENT', 'pupils are equal and reactive']);
    expect(f).toContainEqual(['HEENT', 'visual field testing reveals bitemporal hemianopia']);
  });

  it('keeps where on the abdomen an asked finding was, and the finding the clinician then dictates', () => {
    const facts = understandEncounter({ transcript: [
      '[doctor] when did the pain start ?',
      '[patient] about three days ago .',
      '[doctor] lie down here on the table and let\'s take a look at you . when i push on your lower belly , does it hurt ?',
      '[patient] no .',
      '[doctor] how about up here in your upper abdomen ?',
      '[patient] that hurts a little .',
      '[doctor] we\'ll say you have mild tenderness to palpation in the upper abdomen , but everything else on your exam looks good .',
    ].join('\n') });
    const f = facts.exam.map((e) => [e.system, e.finding]);
    expect(f).toContainEqual(['Gastrointestinal', 'no tenderness to palpation of the lower abdomen']);
    expect(f).toContainEqual(['Gastrointestinal', 'mild tenderness to palpation in upper abdomen']);
    // "Everything else looks good" is a summary, not a finding of any system.
    expect(f.some(([, text]) => /everything/.test(text!))).toBe(false);
    // The question asked during the exam ("does it hurt?") does not start the assessment.
    expect(facts.problems.every((p) => !/hurt/.test(p.name))).toBe(true);
  });
});

describe('a study with two findings said in contrast', () => {
  it('does not judge a normal measurement by the abnormality said after "but"', () => {
    const t = [
      '[doctor] hi , how are you ?',
      '[patient] okay .',
      '[doctor] so i looked at your echocardiogram from the hospital , it showed an ejection fraction of 55 % , but there was some abnormal filling of the heart and mild mitral regurgitation .',
    ].join('\n');
    const [echo] = understandEncounter({ transcript: t }).results;
    expect(echo?.interpretation).toBeUndefined();
    expect(echo?.finding).toBe('ejection fraction of 55%; abnormal filling of heart and mild mitral regurgitation');
    const note = writeNoteSync({ transcript: t, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).toContain('Echocardiogram: Ejection fraction of 55%; abnormal filling of heart and mild mitral regurgitation.');
    expect(note).not.toMatch(/55%\s*\(abnormal\)/);
  });

  it('still judges a study whose only finding is said abnormal', () => {
    const [echo] = understandEncounter({ transcript: "[doctor] hi .\n[patient] hi .\n[doctor] your echocardiogram showed an ejection fraction of 30 % , which is abnormal ." }).results;
    expect(echo?.interpretation).toBe('abnormal');
  });
});

describe('a measure followed over time, judged as said', () => {
  const result = (line: string) => understandEncounter({ transcript: `[doctor] hi .\n[patient] hi .\n[doctor] ${line}` }).results;
  it('reads "under control" as controlled, and a judgement restated in the same breath as the later one', () => {
    expect(result('your blood sugars are under control .')[0]?.interpretation).toBe('controlled');
    expect(result('looking at your log , your blood sugars have been low , i mean under control .')[0]?.interpretation).toBe('controlled');
    expect(result('your blood sugars have been running a little bit high .')[0]?.interpretation).toBe('high');
  });

  it('writes the summary verb to agree with a plural measure', () => {
    const t = "[doctor] hi .\n[patient] hi .\n[doctor] your blood sugars have been running a little bit high .\n[doctor] okay , let's talk about my assessment and plan .\n[doctor] for your diabetes , we'll start metformin 500 mg twice a day .";
    expect(writeNoteSync({ transcript: t, noteType: { type: 'soap' }, language: 'en' }).markdown).toContain('Diabetes: Blood sugars were high.');
  });

  it('reads no result from a question without its mark, a guess, or "controlled" said of a study', () => {
    expect(result('have your blood sugars been running in the low one hundreds or 2 hundreds or what')).toEqual([]);
    expect(result("your blood sugar's probably been running a little high .")).toEqual([]);
    expect(result("we looked at your ecg taken earlier today , and we are seeing the a-fib , but it's being well controlled with the medicine .").every((r) => r.interpretation !== 'controlled')).toBe(true);
    expect(result('your ecg shows atrial fibrillation with controlled ventricular response .')[0]?.interpretation).toBeUndefined();
  });
});

describe('an exam finding said with its lay explanation', () => {
  it('keeps the finding and its place, and drops the filler and "that means ..."', () => {
    expect(findingPhrase('i do notice some like ecchymosis and edema that just means bruising and swelling along the lateral aspect of your knee')?.text).toBe('ecchymosis and edema along lateral aspect of knee');
    expect(findingPhrase("there's no overlying erythema and that means redness or ecchymosis and that means bruising")).toEqual({ text: 'no overlying erythema or ecchymosis', negated: true });
    expect(findingPhrase('there is erythema which means redness')?.text).toBe('erythema');
  });
});
