import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { clausesOf, planItemsIn } from '../../main/services/encounter/plan.js';
import { drugMatcher } from '../../main/services/encounter/medications.js';
import { findingPhrase, readExam } from '../../main/services/encounter/exam.js';
import { readSaid } from '../../main/services/encounter/said.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';

/**
 * Misreadings a review of this stop's rules found (a helper who had not written them, with sentences of its own):
 * each rule is held to what it must not read. The sentences are written for these tests.
 */
const AP = "[doctor] okay , let's just talk a little bit about my assessment and my plan for you .\n";
const items = (clause: string) => clausesOf(clause).flatMap((c) => planItemsIn(c, drugMatcher([])));
const meds = (transcript: string) => understandEncounter({ transcript }).medications.map((m) => [m.name, m.dose ?? '-', m.status]);
const ordered = (transcript: string) => {
  const f = understandEncounter({ transcript });
  return [...f.problems.flatMap((p) => p.plan.map((i) => [p.name, i.kind, i.action ?? '', i.medication?.name ?? i.target ?? '', i.medication?.frequency ?? ''])), ...f.plan.map((i) => ['-', i.kind, i.action ?? '', i.medication?.name ?? i.target ?? i.text ?? '', ''])];
};

describe('a reply gives the asked drug only a dose it opens with', () => {
  it('gives no dose from another drug, a lab value, a dose talked of or one taken before', () => {
    expect(meds('[doctor] are you still taking the lisinopril ?\n[patient] yes , and the water pill 25 mg .')).toContainEqual(['Lisinopril', '-', 'current']);
    expect(meds('[doctor] are you still taking the metformin ?\n[patient] yes , my sugars are around 150 milligrams per deciliter .').find(([n]) => n === 'Metformin')?.[1]).toBe('-');
    expect(meds('[doctor] are you still taking the lisinopril ?\n[patient] yeah , the other doctor talked about going up to 20 mg but we never did .').find(([n]) => n === 'Lisinopril')?.[1]).toBe('-');
    expect(meds('[doctor] have you ever tried gabapentin ?\n[patient] yes , 300 mg , but it made me dizzy .').find(([n]) => n === 'Gabapentin')?.[1]).toBe('-');
  });

  it('keeps "continue" of the drug whose reply gave no dose', () => {
    const t = '[doctor] are you still taking the lisinopril ?\n[patient] yes , every morning , and my water pill is 25 mg once a day .\n' + AP + '[doctor] for your high blood pressure , continue lisinopril 20 mg daily .';
    expect(ordered(t).filter(([, kind]) => kind === 'medication').map(([, , action, name]) => `${action} ${name}`)).toEqual(['continue Lisinopril']);
  });
});

describe('a split schedule is one drug\'s, on one day', () => {
  it('leaves another drug\'s dose and a later step out of the schedule', () => {
    const coq = ordered('[patient] i take metformin 500 mg twice a day .\n' + AP + '[doctor] for your diabetes , take the metformin 1000 mg in the morning and 400 mg of coq10 at night .');
    expect(coq.find(([, , , name]) => name === 'Metformin')?.[4]).toBe('in the morning');
    const step = ordered(AP + '[doctor] for your neuropathy , start gabapentin 300 mg at bedtime and 300 mg in the morning after a week .');
    expect(step.find(([, , , name]) => name === 'Gabapentin')?.[4]).toBe('at bedtime');
  });

  it('keeps a continue a continue, and a drug taken as needed then prescribed a start', () => {
    expect(ordered('[patient] i take metformin 500 mg , two tablets twice a day .\n' + AP + '[doctor] for your diabetes , continue metformin 1000 mg twice a day .').map(([, , action]) => action)).toEqual(['continue']);
    expect(ordered('[patient] i take ibuprofen 200 mg every 6 hours as needed .\n' + AP + "[doctor] for your knee , i'll prescribe ibuprofen 800 mg three times a day .").map(([, , action]) => action)).toEqual(['start']);
  });
});

describe('orders read from ordinary speech', () => {
  it('reads no continue of a regimen refused or stopped', () => {
    expect(items('we cannot continue the current regimen')).toEqual([]);
    expect(items("we can't keep you on your current medications")).toEqual([]);
    expect(items('rather than continue your current medications , i want to try something new')).toEqual([]);
  });

  it('reads no order of records fetched, a level brought down, a study hoped for later, or a program', () => {
    expect(items("i'll get the appendectomy records from the hospital")).toEqual([]);
    expect(items("we're going to get the pain level down")).toEqual([]);
    expect(items("maybe we'll do an ankle brachial index next time")).toEqual([]);
    expect(items("i'll get the test results back to you")).toEqual([]);
    expect(items("we'll do a home exercise program")).toEqual([]);
    expect(items("i'll do a strep swab").map((i) => [i.kind, i.target])).toEqual([['test', 'strep swab']]);
  });

  it('reads no procedure from a surgery done before, one to think about, or a device taken off', () => {
    expect(items('since you had surgery on that ankle , wear supportive shoes').filter((i) => i.kind === 'procedure')).toEqual([]);
    expect(items('i want you to think about surgery').filter((i) => i.kind === 'procedure')).toEqual([]);
    expect(items('you can get rid of the walking boot now').filter((i) => i.kind === 'procedure')).toEqual([]);
  });
});

describe('where an order belongs', () => {
  it('keeps an order said in the sentence that names its problem under that problem', () => {
    const t = '[patient] i have high blood pressure too .\n' + AP + "[doctor] for your adhd , let's start clonidine 0.1 mg at bedtime .";
    expect(ordered(t).map(([problem, , , name]) => [problem, name])).toEqual([['adhd', 'Clonidine']]);
  });

  it('opens no problem from a relative\'s condition, a screening, pre-diabetes or pulmonary hypertension', () => {
    for (const history of ['diabetes runs in my family .', "we'll screen you for diabetes today .", 'my last a1c was in the pre-diabetes range .']) {
      const t = `[patient] ${history}\n${AP}[doctor] for your weight , let's also start metformin 500 mg daily .`;
      expect(understandEncounter({ transcript: t }).problems.map((p) => p.name)).not.toContain('diabetes');
    }
    const t = `[patient] they told me i have pulmonary hypertension .\n${AP}[doctor] for your swelling , continue amlodipine 5 mg daily .`;
    expect(understandEncounter({ transcript: t }).problems.map((p) => p.name)).not.toContain('hypertension');
  });
});

describe('the phases and the exam', () => {
  it('opens no plan at possible causes weighed in the history, nor at a turn to another part in the exam', () => {
    const said = readSaid([
      '[doctor] what brings you in ?',
      '[patient] i fainted last week .',
      '[doctor] there are several possible causes for that , so let me ask you a few more questions .',
      '[doctor] do you take any medications ?',
      '[patient] lisinopril and metformin .',
      '[doctor] any chest pain ?',
      '[patient] no .',
    ].join('\n')).said;
    expect(said.every((s) => s.phase !== 'plan')).toBe(true);
  });

  it('charts no finding from another doctor\'s exam, a hope, an expectation or a parent\'s report', () => {
    const exam = (t: string) => readExam(readSaid(t).said).exam.map((e) => e.finding);
    expect(exam("[doctor] how is the ankle ?\n[patient] better .\n[doctor] the er doctor's exam showed some swelling in your left ankle .")).toEqual([]);
    expect(findingPhrase('hopefully the wheezing will be gone')).toBeUndefined();
    expect(findingPhrase('your ankle will be swollen and bruised for a week or two')).toBeUndefined();
    expect(findingPhrase('she was fussy all night according to mom')).toBeUndefined();
    expect(findingPhrase('for your left knee pain')).toBeUndefined();
  });

  it('opens the exam phase with the same words that open an exam anywhere, but not with another doctor\'s exam', () => {
    const phaseOf = (t: string, re: RegExp) => readSaid(t).said.find((s) => re.test(s.text))?.phase;
    const history = ['[doctor] what brings you in ?', '[patient] my knee hurts .', '[doctor] how long ?', '[patient] two weeks .', '[doctor] any swelling ?', '[patient] a little .'];
    expect(phaseOf([...history, '[doctor] upon examination , the right knee has a small effusion .'].join('\n'), /effusion/)).toBe('exam');
    expect(phaseOf([...history, "[doctor] the er doctor's exam showed a small effusion ."].join('\n'), /effusion/)).not.toBe('exam');
  });

  it('reads no order from what another clinician does, or does as a habit', () => {
    const drugs = drugMatcher([]);
    expect(planItemsIn('the specialists sometimes will do an ultrasound as part of their physical exam', drugs)).toEqual([]);
    expect(planItemsIn('they usually get an mri before surgery', drugs)).toEqual([]);
    expect(planItemsIn("we'll get an ultrasound of the breast", drugs).map((i) => i.target)).toEqual(['ultrasound']);
  });

  it('keeps a positive finding after a list of denials as its own finding', () => {
    const f = readExam(readSaid("[doctor] let's take a look at your knee .\n[doctor] on exam , there's no erythema , warmth , and the knee is tender along the medial joint line .").said).exam;
    expect(f.some((e) => e.presence === 'reported' && /tender/.test(e.finding))).toBe(true);
  });

  it('files no exam finding by a word in another sense ("motor vehicle", "does not affect")', () => {
    const exam = (t: string) => readExam(readSaid(t).said).exam.map((e) => e.system);
    expect(exam("[doctor] let's take a look at your neck .\n[doctor] on exam , you have tenderness of the neck from the motor vehicle accident .")).not.toContain('Neurological');
    expect(exam("[doctor] let's take a look at your hands .\n[doctor] on exam , the rash does not affect your palms .")).not.toContain('Psychiatric');
  });
});

/** What the thirteenth reading (12 tuning-split notes read as the signing physician) found. Written for these tests. */
describe('a condition not ruled out while its test is pending, an offer, a cough syrup', () => {
  it('writes no "ruled out" for a condition the clinician doubts while its test is sent', () => {
    const f = understandEncounter({ transcript: AP + "[doctor] for your first problem , this upper respiratory infection , i believe you have a viral syndrome . we'll send a covid test , just to make sure . i don't think you have covid ." });
    expect(f.problems.map((p) => [p.name, p.certainty])).toEqual([['upper respiratory infection', 'confirmed']]);
    expect(f.problems[0]!.plan.map((i) => i.target)).toContain('covid test');
  });

  it('reads a referral offered "if you think that would be helpful" as the patient\'s choice, not an order', () => {
    expect(items('refer you to psychotherapy , if you think that that would be helpful .').map((i) => [i.target, i.condition])).toEqual([['counseling', 'if the patient wishes']]);
  });

  it('orders Robitussin as guaifenesin', () => {
    expect(items("i'll give you some robitussin for your cough").map((i) => i.medication?.generic)).toEqual(['guaifenesin']);
  });
});

describe('an exam finding with a number the recogniser could not read', () => {
  it('writes no finding whose number was said unclearly, and keeps a disfluent repeat once', () => {
    const f = readExam(readSaid("[doctor] let's listen to your heart .\n[doctor] on your heart exam you have a regular rate and rhythm with a two out of six six systolic murmur .").said).exam;
    expect(f.filter((e) => /\d|six/.test(e.finding))).toEqual([]);
    expect(findingPhrase('you have a nice regular rate and rhythm with a 2 out of 6 systolic murmur appreciate appreciated')?.text).toBe('regular rate and rhythm with 2/6 systolic murmur appreciated');
  });
});

describe('a condition placed in the family after it is named', () => {
  it('reads "a history of breast cancer in your family" as family history, not the patient\'s', () => {
    const f = understandEncounter({ transcript: "[doctor] i know that you have a history of breast cancer in your family . how old was your mother when she had it ?\n[patient] she was 40 ." });
    expect(f.history.filter((h) => h.kind === 'medical').map((h) => h.term)).not.toContain('breast cancer');
    expect(f.history.filter((h) => h.kind === 'family').map((h) => h.term)).toContain('breast cancer');
  });
});

describe('seen in passing by the review (older misreadings)', () => {
  it('gives a current drug only its own schedule, not the next drug\'s', () => {
    expect(understandEncounter({ transcript: '[patient] i take metformin 500 mg twice a day and lisinopril 10 mg once a day .' }).medications.map((m) => [m.name, m.frequency]))
      .toEqual([['Metformin', 'twice daily'], ['Lisinopril', 'once daily']]);
    expect(items('take tylenol 500 mg every 4 hours as needed for pain').map((i) => i.medication?.frequency)).toEqual(['every 4 hours as needed']);
  });

  it('holds a problem doubted right after its name as probable', () => {
    const f = understandEncounter({ transcript: AP + "[doctor] as for the problem of chronic pain , i'm not sure that's what this is yet ." });
    expect(f.problems.map((p) => p.certainty)).not.toContain('confirmed');
  });
});

describe('an exam finding said with "you have", a drug that did not help, a common injury', () => {
  it('does not open the assessment at "it looks like you have a decent range of motion"', () => {
    const said = readSaid([
      '[doctor] how long ago did this happen ?',
      '[patient] a week ago .',
      "[doctor] let's take a look at your knee . i do notice some bruising along the lateral aspect of your knee .",
      "[doctor] i don't notice any effusion and it looks like you have a decent range of motion .",
      "[doctor] let's talk about my assessment and plan . for your first problem of right knee pain , i think you have a lateral ligament strain .",
    ].join('\n')).said;
    expect(said.find((s) => /decent range/.test(s.text))?.phase).toBe('exam');
  });

  it('keeps a drug that "did not really help" as taken, not stopped', () => {
    expect(meds('[doctor] did the tylenol help ?\n[patient] not really .').map(([, , status]) => status)).not.toContain('stopped');
    expect(meds('[doctor] are you still taking the tylenol ?\n[patient] no .').map(([, , status]) => status)).toContain('stopped');
  });

  it('opens no problem "common injury"', () => {
    expect(understandEncounter({ transcript: AP + '[doctor] for your knee strain , this is a common injury that tends to heal on its own .' }).problems.map((p) => p.name)).not.toContain('common injury');
  });
});

describe('weight loss as an aim', () => {
  const symptoms = (t: string) => understandEncounter({ transcript: t }).symptoms.map((s) => [s.term, s.presence]);
  it('reads no weight loss from trying or wanting to lose weight, and still reads it reported or denied', () => {
    expect(symptoms("[patient] i've been trying to exercise more in order to lose weight but my headaches come back .")).not.toContainEqual(['weight loss', 'reported']);
    expect(symptoms('[doctor] exercise and weight loss are an important part of the treatment .')).toEqual([]);
    expect(symptoms("[patient] i've lost weight , about ten pounds .")).toContainEqual(['weight loss', 'reported']);
    expect(symptoms('[doctor] any weight loss ?\n[patient] no .')).toContainEqual(['weight loss', 'denied']);
  });
});

describe('the patient\'s sex from pronouns', () => {
  it('does not count "he" that refers back to a doctor the patient just named', () => {
    const t = [
      '[doctor] angela , we will refer you to urology .',
      '[patient] can i see doctor harris ?',
      "[doctor] he's great , he's great , i've heard he does really good work .",
      "[doctor] he's a very good surgeon too .",
    ].join('\n');
    expect(understandEncounter({ transcript: t }).patient.sex).toBeUndefined();
    expect(understandEncounter({ transcript: '[doctor] so she is a 52-year-old here for her knee . she hurt it skiing .' }).patient.sex).toBe('female');
  });
});

describe('someone else\'s story in the patient\'s account', () => {
  const hpi = (t: string) => understandEncounter({ transcript: t }).statements?.map((s) => s.text) ?? [];
  it('writes no statement whose subject is a son, a husband or "he" in the patient\'s own words', () => {
    const t = [
      '[doctor] so he is a 45-year-old male here for his ankle . what happened ?',
      "[patient] my son started playing basketball this year . he is only ten and tiny . i went up for a shot and landed awkwardly and twisted my ankle .",
      '[patient] my husband makes me watch the games all the time and they lose all the time .',
    ].join('\n');
    const note = writeNoteSync({ transcript: t, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).not.toMatch(/\bten and tiny\b|started playing basketball|husband/i);
    expect(hpi(t).join(' ')).not.toMatch(/\bten and tiny\b/);
  });
});

describe('a complaint named by its place and the diagnosis said next', () => {
  const names = (t: string) => understandEncounter({ transcript: AP + t }).problems.map((p) => [p.name, p.certainty]);
  it('renames "right knee pain" by a confirmed diagnosis, and keeps it beside a possible one', () => {
    expect(names('[doctor] for your first problem of right knee pain .\n[doctor] you have a lateral ligament strain .').map(([n]) => n)).toEqual(['lateral ligament strain']);
    expect(names('[doctor] for your first problem of left shoulder pain .\n[doctor] this could be a rotator cuff tear , so we will get an mri .').map(([n]) => n)).toContain('left shoulder pain');
  });
});

describe('a heading said alone, a named regimen, risks read for consent', () => {
  it('opens "the radiation pneumonitis." said alone after "for problem number 2" as that problem', () => {
    const f = understandEncounter({ transcript: AP + '[doctor] okay for problem number 2 .\n[doctor] the radiation pneumonitis .\n[doctor] i am going to prescribe prednisone 40 mg daily for 5 days .' });
    expect(f.problems.map((p) => [p.name, p.plan.map((i) => i.medication?.generic)])).toEqual([['radiation pneumonitis', ['prednisone']]]);
  });

  it('reads no "continue current medications" from a named regimen, and no finding from risks read out for consent', () => {
    expect(items("we're going to continue with the current regimen of your chemotherapy")).toEqual([]);
    const exam = readExam(readSaid("[doctor] let's take a look at your knee .\n[doctor] on exam , there is swelling of the right knee .\n[doctor] the risks of the injection include hypopigmentation , soft tissue atrophy , and tendon rupture .").said).exam.map((e) => e.finding);
    expect(exam.join(' ')).not.toMatch(/atrophy|hypopigmentation|rupture/);
    expect(exam.join(' ')).toMatch(/swelling/);
  });
});

describe('a splint named after a false start, a drug "we\'ll get you"', () => {
  it('orders the splint and the Motrin', () => {
    expect(items("i would recommend we get you a s- , aluminum foam splint and we'll get you some motrin .").map((i) => i.target ?? i.medication?.generic)).toEqual(['splint', 'ibuprofen']);
  });
});
