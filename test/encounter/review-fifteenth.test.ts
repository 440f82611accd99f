import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';
import type { PlanItem } from '../../main/services/encounter/types.js';

/**
 * Misreadings a review of this stop's rules found (a helper who had not written them, with sentences of its own,
 * docs/reviews/2026-12-02-rules-diff-review-second.md): each rule is held to what it must not read. The sentences are written for these tests.
 */
const AP = "[doctor] okay , let's just talk a little bit about my assessment and my plan for you .\n";
const facts = (t: string) => understandEncounter({ transcript: t });
const soap = (t: string) => writeNoteSync({ transcript: t, noteType: { type: 'soap' }, language: 'en' }).markdown;
const allPlan = (t: string): PlanItem[] => { const f = facts(t); return [...f.plan, ...f.problems.flatMap((p) => p.plan)]; };
const med = (t: string, name: string) => facts(t).medications.find((m) => m.name.toLowerCase() === name);

describe('current doses and schedules', () => {
  it('takes no schedule from the answer to a question about a symptom', () => {
    const t = '[doctor] what do you take ?\n[patient] i take lisinopril 20 mg .\n[doctor] how often do you get the headaches ?\n[patient] maybe three times a day .';
    expect(med(t, 'lisinopril')?.frequency).toBeUndefined();
  });

  it('gives a bare dose before a drug to the drug before it, and no dose changed later in the sentence', () => {
    expect(med("[doctor] what do you take ?\n[patient] i'm on metformin 500 mg lisinopril 10 mg daily .", 'lisinopril')?.dose).toBe('10 mg');
    expect(med('[doctor] what do you take ?\n[patient] i was on 20 mg of lipitor , but dr. jones increased it to 40 mg .', 'lipitor')?.dose).not.toBe('20 mg');
  });
});

describe('procedures done, and those that are not', () => {
  it('reads a prescription given in a sentence as a prescription, not an injection', () => {
    const items = allPlan(`${AP}[doctor] for your pneumonia , i'm giving you 875 mg of augmentin twice a day for ten days .`);
    expect(items.some((i) => i.kind === 'procedure')).toBe(false);
    expect(items.some((i) => i.kind === 'medication' && /augmentin/i.test(i.medication!.name))).toBe(true);
  });

  it('writes no procedure done today from one done before, by someone else, or to be done later', () => {
    for (const line of [
      'so we injected your right knee with 40 mg of kenalog back in march .',
      'dr. smith performed a steroid injection in your left shoulder last month .',
      "i'm going to inject your knee with cortisone at your next visit if it's not better .",
    ]) expect(allPlan(`[doctor] hi .\n[patient] hi .\n${AP}[doctor] ${line}`).some((i) => i.kind === 'procedure' && i.text), line).toBe(false);
    expect(med('[doctor] hi .\n[doctor] so we injected your right knee with 40 mg of kenalog back in march .', 'kenalog')?.status).not.toBe('current');
  });

  it('keeps a planned epidural for another problem and the studies said with an aspiration', () => {
    const t = `${AP}[doctor] for your low back pain , we'll schedule you for an epidural steroid injection .\n[doctor] for your right knee effusion , i'm going to aspirate the knee today and send the fluid for a cell count and culture .\n[doctor] okay , i'm injecting 40 mg of kenalog into the right knee now .`;
    const items = allPlan(t);
    expect(items.some((i) => i.target === 'epidural steroid injection')).toBe(true);
    expect(items.some((i) => i.kind === 'test' && /culture/.test(i.target ?? ''))).toBe(true);
    expect(items.filter((i) => i.kind === 'procedure' && i.text).map((i) => i.text)).toEqual(['Aspiration of the right knee; injection with kenalog 40 mg']);
  });

  it('files a procedure said without a site under the problem being discussed', () => {
    const t = `${AP}[doctor] for your hypertension , continue lisinopril 10 mg daily .\n[doctor] for your left shoulder bursitis , we talked about a steroid shot .\n[doctor] okay , i'm injecting 40 mg of kenalog and 2 cc of lidocaine now .`;
    expect(facts(t).problems.find((p) => /bursitis/.test(p.name))?.plan.some((i) => i.kind === 'procedure' && i.text)).toBe(true);
  });

  it('reads no start from a drug that will start working', () => {
    expect(allPlan(`${AP}[doctor] for your knee , the kenalog should start working in a couple of days .`).some((i) => i.kind === 'medication')).toBe(false);
  });
});

describe('orders another clinician or a habit gives', () => {
  it('keeps an order this clinician gives in the same breath, and a dictated order with the patient as subject', () => {
    expect(allPlan(`${AP}[doctor] for your cholesterol , we usually check a lipid panel once a year , so i'll order that today .`).some((i) => /lipid/.test(i.target ?? ''))).toBe(true);
    expect(allPlan(`${AP}[doctor] for the ankle sprain , she will get an x-ray of the right ankle today .`).some((i) => i.kind === 'imaging')).toBe(true);
  });
});

describe('results', () => {
  const results = (line: string) => facts(`[doctor] hi .\n[patient] hi .\n[doctor] ${line}`).results;
  it('reads "poorly controlled" as out of range, never as controlled', () => {
    for (const line of ['your blood sugars have been poorly controlled .', 'your blood sugars are not under control .']) expect(results(line)[0]?.interpretation, line).toBe('abnormal');
  });

  it('does not take a reference range or a comparison for a restated judgement', () => {
    expect(results('your potassium came back low , normal is above 3.5 .')[0]?.interpretation).toBe('low');
    expect(results('your ldl is high , better than last year .')[0]?.interpretation).toBe('high');
  });

  it('keeps a result said with a guess when it has a value, and a study whose "but" is no finding of it', () => {
    expect(results('your potassium is maybe a little low at 3.4 .')[0]?.value).toBe('3.4');
    expect(results('the x-ray showed no fracture , but there is still a lot of pain when i press on the ankle .')[0]?.finding).toBe('no fracture');
  });

  it('writes "was" after a name ending in -is', () => {
    const t = `[doctor] hi .\n[patient] hi .\n[doctor] your urinalysis came back positive .\n${AP}[doctor] for your urinary tract infection , start nitrofurantoin 100 mg twice a day .`;
    expect(soap(t)).not.toMatch(/Urinalysis were/);
  });
});

describe('the exam and the assessment', () => {
  it('opens the exam when the clinician compares with last time but examines today', () => {
    const t = ['[doctor] how is the throat ?', '[patient] still sore .', '[doctor] any fever ?', '[patient] yes .', '[doctor] how long ?', '[patient] three days .',
      "[doctor] same as last time , i'm going to do a quick exam .", '[doctor] your tonsils are swollen with exudate .'].join('\n');
    expect(facts(t).exam.length).toBeGreaterThan(0);
  });

  it('keeps real assessment statements', () => {
    const reasoning = (line: string) => facts(`[doctor] hi .\n[patient] my knee hurts .\n${AP}[doctor] for your knee osteoarthritis , ${line}`).problems.flatMap((p) => p.reasoning);
    for (const line of ['you may have a tear of the medial meniscus as well .', 'the x-ray shows that the joint space is narrowed .', 'everything is consistent with osteoarthritis of the knee .', 'for the most part this looks like osteoarthritis .']) {
      expect(reasoning(line), line).toHaveLength(1);
    }
  });

  it('keeps a cardinal symptom as the chief complaint when a diagnosis follows', () => {
    const t = "[doctor] hi .\n[patient] i've had a fever and a cough for four days .\n" + AP + "[doctor] for your pneumonia , we'll start azithromycin 500 mg today .";
    expect(soap(t)).toMatch(/### Chief Complaint\n\nFever/);
  });
});
