import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';
import { readFrequencies } from '../../main/services/clinical-language/units.js';
import { cleanUtterance } from '../../main/services/encounter/clean.js';
import { stripTalk } from '../../main/services/encounter/talk.js';
import { planItemsIn } from '../../main/services/encounter/plan.js';
import { drugMatcher } from '../../main/services/encounter/medications.js';
import { painSite } from '../../main/services/encounter/attributes.js';

/**
 * Statements a physician's fourth reading of held-out notes found wrong (docs/reviews/
 * 2026-11-28-notes-test2-fourth.md): adherence read from the doctor's question, a chart value
 * read as today's, a denied drug listed, a new prescription listed as taken. The transcripts are
 * written for these tests.
 */
const soap = (transcript: string): string => writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
const meds = (transcript: string) => Object.fromEntries(understandEncounter({ transcript }).medications.map((m) => [m.name.toLowerCase(), m]));

describe('adherence is what the patient says', () => {
  it('does not take "every day" from the question when the answer is "not every day"', () => {
    const transcript = "[doctor] have you been using the loratadine every day this month ?\n[patient] not every day , only when i mow the lawn .";
    expect(meds(transcript)['loratadine']?.adherence).toBeUndefined();
    expect(soap(transcript)).not.toMatch(/as prescribed/i);
  });

  it('takes a "yes" to "are you taking it every day" as adherence', () => {
    expect(meds("[doctor] are you taking the lisinopril every day ?\n[patient] yes , every morning .")['lisinopril']?.adherence).toBe('taking as prescribed');
  });

  it('keeps admitted missed doses over a later "yes" about the pills as a whole', () => {
    const transcript = "[doctor] are you taking your medications ?\n[patient] most of the time . sometimes i miss a dose or two .\n[doctor] and have you been taking your pills since you got home ?\n[patient] yes .";
    const note = soap(transcript);
    expect(note).toMatch(/missing doses/i);
    expect(note).not.toMatch(/Reports taking medications as prescribed/);
  });
});

describe('where a blood pressure was measured', () => {
  it('reads a value the clinician sees in the chart after a hospital stay as that setting\'s, and today\'s inside exam narration', () => {
    const transcript = "[patient] i went to the er because i could n't breathe .\n[doctor] i was told you were admitted to the hospital . i do see here that your blood pressure was one ninety over one hundred .\n" +
      "[doctor] okay i'm going to do a quick exam now and your blood pressure today is actually looking pretty good at one thirty two over seventy eight and your heart rate's been steady at like seventy four .";
    const vitals = understandEncounter({ transcript }).vitals.map((v) => [v.kind, v.value, v.source]);
    expect(vitals).toContainEqual(['bloodPressure', '190/100', 'emergency']);
    expect(vitals).toContainEqual(['bloodPressure', '132/78', 'today']);
    expect(vitals).toContainEqual(['heartRate', '74', 'today']);
    const section = soap(transcript).split('### Vitals')[1]?.split('###')[0] ?? '';
    expect(section).toContain('132/78');
    expect(section).not.toContain('190/100');
  });

  it('keeps "the er" as a place, while "er" alone is still a hesitation', () => {
    expect(cleanUtterance('when i got to the er the doctor said')).toBe('when i got to the er the doctor said');
    expect(cleanUtterance('it was er about a week ago')).toBe('it was about a week ago');
  });
});

describe('drugs the patient does not take', () => {
  it('lists a drug the clinician says no one has prescribed as mentioned only, and one with no side effects as taken', () => {
    const m = meds("[doctor] so i'm going to assume no one has put you on prednisone for your breathing then .\n[patient] nope .\n[patient] i take metformin five hundred milligrams twice a day and i have no side effects from the metformin .");
    expect(m['prednisone']?.status).toBe('mentioned');
    expect(m['metformin']?.status).toBe('current');
  });

  it('writes a drug the doctor describes and then starts as a new prescription, not as a current medication', () => {
    const transcript = "[doctor] the one your plan covers is ciclesonide . it would be two puffs in the morning and two puffs at night .\n[patient] okay .\n" +
      "[doctor] so for your asthma , i'd like to start the ciclesonide two puffs twice a day and your albuterol if you need it .";
    const facts = understandEncounter({ transcript });
    expect(facts.medications.find((m) => m.generic === 'ciclesonide')?.status).toBe('mentioned');
    const note = soap(transcript);
    expect(note.split('### Current Medications')[1]?.split('###')[0] ?? '').not.toMatch(/ciclesonide/i);
    expect(note).toMatch(/Start Ciclesonide 2 puffs twice daily\./);
  });

  it('knows common inhaler and rheumatology brands (Wixela, Alvesco, Xeljanz)', () => {
    const m = meds('[patient] i use wixela one puff twice a day and i take xeljanz eleven milligrams daily .');
    expect(m['wixela']?.generic).toBe('fluticasone-salmeterol');
    expect(m['xeljanz']?.generic).toBe('tofacitinib');
  });
});

describe('spoken schedules', () => {
  it('reads a dose each morning and night as twice daily, and "if you need it" as as needed', () => {
    expect(readFrequencies('two puffs in the morning and two puffs at night').map((f) => f.abbreviation)).toEqual(['BID']);
    expect(readFrequencies('use it whenever you need it').map((f) => f.abbreviation)).toEqual(['PRN']);
    expect(readFrequencies('one at night').map((f) => f.abbreviation)).toEqual(['QHS']);
  });
});

describe('symptoms as the patient meant them', () => {
  const symptoms = (transcript: string) => understandEncounter({ transcript }).symptoms.map((s) => [s.term, s.presence, ...(s.modifiers.includes('with none at present') ? ['now absent'] : [])]);

  it('reads "the back of my heel" as heel pain and "get back up" as no site', () => {
    const found = symptoms("[patient] the back of my heel hurts after a workout .\n[patient] if i sit for a while and then try to get back up it's really sore again .");
    expect(found.map((s) => s[0])).toContain('heel pain');
    expect(found.map((s) => s[0])).not.toContain('back pain');
  });

  it('reads "sweats or clamminess" as sweating and only "night sweats" as night sweats', () => {
    expect(symptoms('[doctor] any sweats or clamminess ?\n[patient] no .')).toEqual([['diaphoresis', 'denied']]);
    expect(symptoms('[doctor] any night sweats ?\n[patient] no .')).toEqual([['night sweats', 'denied']]);
  });

  it('keeps a reported symptom reported when it is only absent right now, and reads "this kind of pressure" as no hedge', () => {
    const transcript = "[doctor] what's going on with your chest pain ?\n[patient] i don't know every time i start walking i get this kind of pressure and chest pain in my chest .\n" +
      '[doctor] okay but no chest pain right now no shortness of breath right now\n[patient] nothing right now .';
    expect(symptoms(transcript)).toEqual([['chest pain', 'reported', 'now absent'], ['shortness of breath', 'denied']]);
    expect(soap(transcript)).toMatch(/reports chest pain with none at present/i);
  });

  it("does not take the patient's own question about a symptom as a statement of it", () => {
    const transcript = '[patient] i get chest pain when i climb stairs .\n[patient] do you think my blood pressure could be causing my chest pain ?';
    expect(symptoms(transcript)).toEqual([['chest pain', 'reported']]);
  });

  it('reads "how about any fevers?" as a yes-or-no question and "what brings you in?" as an open one', () => {
    expect(symptoms('[doctor] how about any fevers or chills ?\n[patient] no .')).toEqual([['fever', 'denied'], ['chills', 'denied']]);
    expect(symptoms("[doctor] what's going on with your cough ?\n[patient] i don't know .")).toEqual([]);
  });
});

describe('orders and problems said through the noise of dictation', () => {
  // A visit's opening, so that what follows is read as its assessment and plan.
  const visit = "[doctor] how have you been doing ?\n[patient] pretty good , my back is a bit stiff in the mornings .\n[doctor] any falls ?\n[patient] no .\n[doctor] okay let me take a look . your lungs are clear and your heart sounds normal .\n";
  it('reads an order given to the dictation assistant as the physician\'s order, and a wake word with no order as talk', () => {
    const transcript = visit + "[doctor] so for your osteoporosis , continue the fosamax .\n[doctor] hey dragon , order a refill of fosamax 1 tab per week , 11 refills .\n[doctor] hey dragon , show me the x-ray .";
    const facts = understandEncounter({ transcript });
    const fosamax = facts.problems.find((p) => p.name === 'osteoporosis')?.plan.filter((i) => i.medication?.generic === 'alendronate') ?? [];
    expect(fosamax.map((i) => [i.action, i.medication?.dose, i.medication?.frequency])).toContainEqual(['refill', '1 tablet', 'weekly']);
    expect(soap(transcript)).not.toMatch(/dragon|show me/i);
  });

  it('opens the second problem after a false start ("in t-, for your second problem, your multiple sclerosis")', () => {
    const transcript = visit + "[doctor] for your first problem , your osteoporosis , continue the fosamax .\n[doctor] and then in t- , for your second problem , your multiple sclerosis i want you to continue to see the neurologist .";
    const problems = understandEncounter({ transcript }).problems.map((p) => [p.name, p.plan.map((i) => i.kind)]);
    expect(problems).toEqual([['osteoporosis', ['medication']], ['multiple sclerosis', ['referral']]]);
  });

  it('orders a study said before its order ("you\'re due for a mammogram, so we\'ll schedule that")', () => {
    const transcript = visit + "[doctor] for your first problem , your high blood pressure , continue the lisinopril 20 mg a day .\n[doctor] for your second problem , your annual exam , you're due for a mammogram , so we'll go ahead and schedule that .";
    const plan = understandEncounter({ transcript }).problems.flatMap((p) => p.plan);
    expect(plan.map((i) => [i.kind, i.target])).toContainEqual(['imaging', 'mammogram']);
  });

  it('keeps advice and the precaution about it one instruction, with no pronoun left alone', () => {
    const transcript = visit + "[doctor] for your high blood pressure , continue the lisinopril 20 mg a day .\n[doctor] i want you to continue to watch your blood pressures as well , and if they start rising , i want you to contact me .";
    const note = soap(transcript);
    expect(note).toContain('Continue to watch the blood pressures; call if they start rising.');
    expect(note).not.toMatch(/^- Return precautions: call if they/m);
  });
});

describe('"I don\'t know" as a spoken opener', () => {
  it('drops it before a statement, keeps it as an answer and before "if"', () => {
    expect(stripTalk("i don't know, it just hurts all the time")).toBe('it just hurts all the time');
    expect(stripTalk("i don't know every time i walk i get this pressure")).toBe('every time i walk i get this pressure');
    expect(stripTalk("i don't know")).toBe("i don't know");
    expect(stripTalk("i don't know if it is worse")).toBe("i don't know if it is worse");
  });
});

describe('a dose corrected as it is said', () => {
  it('keeps the corrected frequency ("once a day, no actually, ... twice a day")', () => {
    const m = meds("[doctor] i see that we have you on glipizide five milligrams once a day no actually last visit we increased it so i've got you on glipizide five milligrams twice a day correct ?\n[patient] yes .");
    expect([m['glipizide']?.dose, m['glipizide']?.frequency]).toEqual(['5 mg', 'twice daily']);
  });

  it('still takes no current dose from a change said of the drug itself', () => {
    const m = meds("[doctor] you're on lisinopril and we talked about whether to increase the lisinopril to 40 mg .");
    expect(m['lisinopril']?.dose).toBeUndefined();
  });
});

describe('what these rules must not read (a reviewer\'s counter-examples)', () => {
  it('gives each drug its own schedule when two are said morning and night', () => {
    const m = meds('[patient] i take lisinopril 10 mg in the morning and metformin 500 mg at night .');
    expect(m['lisinopril']?.frequency).not.toBe('twice daily');
    expect(m['metformin']?.frequency).toBe('at bedtime');
  });

  it('keeps a drug the patient never misses on the current list', () => {
    expect(meds("[patient] i haven't missed a single dose of my lisinopril 10 mg .")['lisinopril']?.status).toBe('current');
    expect(meds('[patient] i never forget my metformin 500 mg twice a day .')['metformin']?.status).toBe('current');
  });

  it('keeps "my back" a site', () => {
    expect(painSite('i hurt my back on saturday and it hurts')?.site).toBe('back');
    expect(painSite('the pain goes from my back down into my left leg')?.site).toBe('back');
  });

  it('reads no vital sign from a count of seconds', () => {
    const vitals = understandEncounter({ transcript: "[doctor] i'm going to check your pulse for 30 seconds ." }).vitals;
    expect(vitals).toEqual([]);
  });

  it('reads no precaution from "return to work" and no order from "until we get those results"', () => {
    const items = (t: string) => planItemsIn(t, drugMatcher([])).map((i) => [i.kind, i.target ?? i.text]);
    expect(items('if you feel better by monday, return to work')).toEqual([]);
    expect(items('the mammogram can wait until we get those results')).toEqual([]);
  });
});

describe('what the unseen train split showed these rules breaking (now tests)', () => {
  it('opens a problem said right after "right now" in unpunctuated speech', async () => {
    const { segmentSpeech } = await import('../../main/services/clinical-language/segment.js');
    const parts = segmentSpeech("so i think this is all muscular pain right now for your back pain i'm going to put you on some flexeril which is a muscle relaxer");
    expect(parts.some((p) => p.startsWith('for your back pain'))).toBe(true);
    expect(parts.some((p) => /right now$/.test(p))).toBe(true);
  });

  it('keeps a drug the doctor says the patient is on as current when the plan orders it again', () => {
    const transcript = "[doctor] it looks like we've had you on prozac 20 milligrams a day .\n[doctor] okay let me examine you . your lungs are clear .\n[doctor] for your depression , we'll increase your prozac from 20 milligrams to 40 milligrams .\n[doctor] hey , dragon , order prozac , 40 milligrams , once a day .";
    expect(meds(transcript)['prozac']?.status).toBe('current');
  });

  it('reads no problem from "... since he follows / you for your blood pressure", and no return precaution about cost', () => {
    expect(understandEncounter({ transcript: '[doctor] i would recommend calling your primary care since he follows .\n[doctor] you for your blood pressure and cholesterol .' }).problems.map((p) => p.name)).not.toContain('blood pressure and cholesterol');
    expect(planItemsIn("if it's too expensive, just let me know", drugMatcher([]))).toEqual([]);
  });
});

describe('a stop is said of the drug, not of which drug is meant', () => {
  it('keeps a drug current when "the X that you\'re not taking" names it before asking how often it is used', () => {
    const transcript = "[doctor] you're on advair 250/50 , one puff twice a day .\n[patient] yes , but lately i use it less and less . some days i feel i don't need it .\n[doctor] so that's the advair that you're not taking . how many days a week do you use it ?\n[patient] about three days .";
    expect(meds(transcript)['advair']?.status).toBe('current');
    expect(soap(transcript)).not.toMatch(/stopped taking advair/i);
  });

  it('still reads a stop when the relative clause says "anymore" or the patient says it stopped', () => {
    expect(meds("[doctor] is that the lisinopril that you're not taking anymore ?\n[patient] right .")['lisinopril']?.status).toBe('stopped');
    expect(meds("[doctor] and that's the lisinopril that you're not taking ?\n[patient] yes , i stopped it in may .")['lisinopril']?.status).toBe('stopped');
    expect(meds("[patient] i'm not taking the metformin , it upset my stomach .")['metformin']?.status).toBe('stopped');
  });
});

describe('a problem is argued from its own findings', () => {
  const assessment = (t: string): string => /## Assessment\n([\s\S]*?)\n## /.exec(soap(t))?.[1] ?? '';
  it('does not argue acne from chest pain, nor chest pain from comedones', () => {
    const t = "[patient] i have had acne on my face for months , and chest pain when i walk up stairs .\n[doctor] okay , let me examine you . your face shows a few comedones . i hear a soft murmur .\n[doctor] so for your acne , i'm going to prescribe benzoyl peroxide with clindamycin gel once a day .\n[doctor] and for your chest pain , i'm ordering a stress test .";
    const a = assessment(t);
    expect(a).toMatch(/^Acne\b.*comedones/m);
    expect(a).not.toMatch(/^Acne\b.*chest pain/im);
    expect(a).not.toMatch(/^Chest pain\b.*comedones/im);
  });

  it('still argues a lone knee problem from knee findings and a general one', () => {
    const t = "[patient] my right knee has hurt for two weeks and i feel tired .\n[doctor] on exam of your right knee there is an effusion .\n[doctor] for your right knee pain , i'm ordering an x-ray of the right knee .";
    const a = assessment(t);
    expect(a).toMatch(/knee pain/i);
    expect(a).toMatch(/effusion/i);
  });

  it('opens a problem for common conditions the clinician names ("for your acne", "your rosacea")', () => {
    const AP = "[doctor] okay , let's talk about my assessment and plan for you .\n";
    const names = (t: string): string[] => understandEncounter({ transcript: AP + t }).problems.map((p) => p.name);
    expect(names("[doctor] for your acne , let's start tretinoin cream at night .")).toContain('acne');
    expect(names("[doctor] for your plantar warts , we'll do cryotherapy today .").join(' ')).toMatch(/wart/);
  });
});

describe('a time belongs to what it was said of', () => {
  const symptoms = (t: string) => Object.fromEntries(understandEncounter({ transcript: t }).symptoms.map((s) => [s.term, s]));
  it('gives a duration said before "and" to what came before it, not the symptom after', () => {
    const s = symptoms("[patient] i have had acne on my face for a few months and some chest pain when i walk .\n[patient] i've had a cough for a week and now a fever since yesterday .");
    expect(s['chest pain']?.duration).toBeUndefined();
    expect(s['cough']?.duration).toBe('1 week');
    expect(s['fever']?.duration).toBeUndefined();
    expect(s['fever']?.onset).toBe('since yesterday');
  });

  it('keeps a duration said after two symptoms, or before one without a conjunction, for them', () => {
    const s = symptoms("[patient] i've had chest pain and shortness of breath for 3 days .\n[patient] for two weeks i've had a headache .");
    expect(s['chest pain']?.duration).toBe('3 days');
    expect(s['headache']?.duration).toBe('2 weeks');
  });
});

describe('a problem is named as a clinician writes it', () => {
  const AP = "[doctor] okay , let's talk about my assessment and plan for you .\n";
  const problems = (t: string) => understandEncounter({ transcript: AP + t }).problems.map((p) => [p.name, p.certainty]);
  it('keeps the hedge as the certainty, not in the name', () => {
    expect(problems('[doctor] i think this is most likely ovarian cancer .')).toEqual([['ovarian cancer', 'probable']]);
    const named = problems("[doctor] for your knee , maybe a some arthritis , let's get an x-ray .").map(([n]) => n);
    expect(named.join(' ')).not.toMatch(/\b(?:maybe|some)\b/);
    expect(problems('[doctor] this is more of a muscular sprain .').map(([n]) => n)).toEqual(['muscular sprain']);
  });
});

describe('a drug the patient takes is continued, not started', () => {
  const AP = "[doctor] okay , let's talk about my assessment and plan for you .\n";
  const ordered = (t: string) => { const f = understandEncounter({ transcript: t }); return [...f.problems.flatMap((p) => p.plan), ...f.plan].filter((i) => i.kind === 'medication').map((i) => `${i.action} ${i.medication!.name}`); };
  it('writes "continue" for a drug the patient said they use, ordered again without a new dose', () => {
    expect(ordered(`[patient] i use my albuterol inhaler maybe once a month before i run .\n${AP}[doctor] for your asthma , you can use the albuterol if you need it .`)).toEqual(['continue Albuterol']);
  });

  it('keeps a start at a new dose, and a start of a drug the patient does not take', () => {
    expect(ordered(`[patient] i take ibuprofen 200 mg sometimes for the knee .\n${AP}[doctor] for your knee pain , let's start ibuprofen 600 mg three times a day .`)).toEqual(['start Ibuprofen']);
    expect(ordered(`${AP}[doctor] for your asthma , you can use albuterol if you need it .`)).toEqual(['start Albuterol']);
  });
});

describe('a hedged problem stays hedged wherever it is named', () => {
  it('writes "Possible ..." in the chief complaint when the only problem is probable', () => {
    const note = soap("[doctor] okay , let's talk about my assessment and plan for you .\n[doctor] i think this is most likely ovarian cancer .");
    expect(note).toMatch(/### Chief Complaint\n\nPossible ovarian cancer\./);
    expect(note).not.toMatch(/### Chief Complaint\n\nOvarian cancer\./);
  });
});

describe('a diagnosis said in the clinician\'s own frame', () => {
  const AP = "[doctor] okay , let's talk about my assessment and plan for you .\n";
  const problems = (t: string) => understandEncounter({ transcript: AP + t }).problems.map((p) => [p.name, p.certainty]);
  it('reads "what I see is", "my diagnosis here would be" and "is due to" as the diagnosis', () => {
    expect(problems("[doctor] this is your left wrist , and what i see is a distal radius fracture .")).toEqual([['distal radius fracture', 'confirmed']]);
    expect(problems('[doctor] so my diagnosis here would be medial epicondylitis .')).toEqual([['medial epicondylitis', 'confirmed']]);
    expect(problems("[doctor] what i'm seeing on your face today is mild rosacea .")).toEqual([['mild rosacea', 'confirmed']]);
    expect(problems('[doctor] your ankle pain is most likely due to a peroneal tendinitis .').map(([n]) => n)).toEqual(['peroneal tendinitis']);
  });

  it('reads a condition the lexicon knows said a few words after the cue, even misheard first', () => {
    expect(problems('[doctor] so i do believe that sam does have a tick , motor tics are common at his age .').map(([n]) => n)).toEqual(['tic disorder']);
    expect(problems('[doctor] my impression is that you probably have a contusion , but let\'s look at the x-ray first .')).toEqual([['contusion', 'probable']]);
    expect(problems('[doctor] it does have some side effects , so call me if anything comes up .')).toEqual([]);
  });

  it('reads no problem from a film that shows nothing', () => {
    expect(problems('[doctor] the x-ray shows no fracture .').filter(([, c]) => c === 'confirmed')).toEqual([]);
  });

  it('starts the assessment at "what we are dealing with is", and files the orders after it under that problem', () => {
    const transcript = [
      '[doctor] how long has the knee been hurting ?',
      '[patient] about two months .',
      '[doctor] okay , on exam you have tenderness over the medial joint line .',
      "[doctor] what i think we're dealing with is left knee osteoarthritis .",
      "[doctor] we can try a cortisone injection into the left knee today .",
    ].join('\n');
    const f = understandEncounter({ transcript });
    expect(f.problems.map((p) => [p.name, p.laterality, p.plan.map((i) => i.kind)])).toEqual([['knee osteoarthritis', 'left', ['procedure']]]);
  });
});

describe('a dictated diagnosis line', () => {
  const problems = (t: string) => understandEncounter({ transcript: `[doctor] okay , let's talk about my assessment and plan for you .\n${t}` }).problems.map((p) => p.name);
  it('names the problem a "primary diagnosis is" line gives, known to the lexicon or not', () => {
    expect(problems('[doctor] primary diagnosis is hematuria .\n[doctor] secondary diagnosis is nephrolithiasis .')).toEqual(['hematuria', 'nephrolithiasis']);
  });

  it('reads no problem from an abbreviation inside a dictated instruction ("update PE abdomen")', () => {
    expect(problems('[doctor] update pe abdomen .')).toEqual([]);
    expect(problems('[doctor] chronic chf .')).toEqual(['chronic chf']);
  });
});

describe('a visit for a known condition, with no diagnosis said', () => {
  it('makes the condition the visit is for its problem ("our yearly follow-up for asthma" -> asthma)', () => {
    const f = understandEncounter({ transcript: "[doctor] hi sam , so you're here today for our yearly follow-up for asthma .\n[patient] yes .\n[doctor] on exam your lungs are clear .\n[doctor] let's keep the albuterol as needed ." });
    expect(f.problems.map((p) => [p.name, p.status])).toEqual([['asthma', 'chronic']]);
    expect(f.reasonForVisit?.term).toBe('yearly follow-up for asthma');
    expect(soap("[doctor] hi , you're in today for a high blood pressure check .\n[doctor] let's keep the lisinopril 10 mg daily .")).toMatch(/## Assessment\n\nHypertension/);
  });

  it('adds no problem when a diagnosis was said, nor for a reason that names no condition', () => {
    expect(understandEncounter({ transcript: "[doctor] you're here for a follow-up of your asthma .\n[doctor] okay , let's talk about my assessment and plan .\n[doctor] i think you have acute bronchitis ." }).problems.map((p) => p.name)).toEqual(['acute bronchitis']);
    expect(understandEncounter({ transcript: "[doctor] you're here for your annual physical .\n[doctor] everything looks good ." }).problems).toEqual([]);
  });
});

describe('what the eighth reading found the diagnosis cues reading wrong (now tests)', () => {
  const AP = "[doctor] okay , let's talk about my assessment and plan for you .\n";
  const problems = (t: string) => understandEncounter({ transcript: AP + t }).problems.map((p) => [p.name, p.certainty, p.status]);
  it('reads no diagnosis from a side effect named, from a wish that something heal, or from "last but not least"', () => {
    expect(problems("[doctor] the next pill would be metoprolol , which i avoid , it's a risk for erectile dysfunction .")).toEqual([]);
    expect(problems("[doctor] no soccer for a while , you have to have this fracture healed first .")).toEqual([]);
    expect(problems('[doctor] last but not least there is the asthma , your breathing seems fine .').filter(([, c]) => c === 'ruled-out')).toEqual([]);
  });

  it('names the condition, not the word "diagnosis", in "you do have this diagnosis of diabetes"', () => {
    expect(problems('[doctor] you do have this diagnosis of diabetes .').map(([n]) => n)).toEqual(['diabetes']);
  });

  it('opens a numbered problem at the condition said after it, each with its own orders', () => {
    const f = understandEncounter({ transcript: AP + "[doctor] your first diagnosis is gon na be coronary artery disease , we'll start aspirin 81 mg daily .\n[doctor] your second diagnosis is like we are crossing into heart failure , i'm gon na prescribe furosemide 40 mg daily .\n[doctor] her third problem was her hypertension ." });
    expect(f.problems.map((p) => [p.name, p.plan.map((i) => i.medication?.name)])).toEqual([['coronary artery disease', ['Aspirin']], ['congestive heart failure', ['Furosemide']], ['hypertension', []]]);
  });
});

describe('the visit summary sits under the problem the visit is about', () => {
  it('puts it under the first problem taken up when none is new, not under a later one', () => {
    const note = soap([
      "[doctor] hi , you're here for your yearly visit .",
      "[doctor] okay , let's talk about my assessment and plan for you .",
      '[doctor] for your first problem , your hypertension , it is well controlled , continue the lisinopril 10 mg daily .',
      '[doctor] your second problem is your depression , continue the sertraline 50 mg daily .',
      '[doctor] your third problem was your carpal tunnel , that seems to be doing well .',
    ].join('\n'));
    const assessment = /## Assessment\n([\s\S]*?)\n## /.exec(note)![1]!;
    expect(assessment).toMatch(/^\s*Hypertension: The patient presents for yearly visit/);
    expect(assessment).toMatch(/Carpal tunnel syndrome\.?\s*$/);
  });
});

describe('a side is said of a part', () => {
  const visit = (assessment: string): string =>
    `[doctor] what brings you in today ?\n[patient] my knee hurts and my blood pressure has been up .\n[doctor] okay . on exam , there is tenderness of the knee .\n${assessment}`;
  const sides = (assessment: string): string[][] => understandEncounter({ transcript: visit(assessment) }).problems.map((p) => [p.name.toLowerCase(), p.laterality ?? '-']);

  it('reads no side from "right," or "right so" said as talk, and the side said of the part', () => {
    expect(painSite('right , so the pain in your knee is better')?.laterality).toBeUndefined();
    expect(sides('[doctor] right , so for your knee osteoarthritis , we will start physical therapy .')).toEqual([['knee osteoarthritis', '-']]);
    expect(sides('[doctor] so for your right knee osteoarthritis , we will start physical therapy .')).toEqual([['right knee osteoarthritis', 'right']]);
  });

  it('gives a whole-body condition no side from a "right" nearby', () => {
    expect(sides("[doctor] all right now , for your coronary artery disease , keep taking the aspirin .\n[doctor] in terms of your hypertension , it's stable on the right dose .")).toEqual([
      ['coronary artery disease', '-'], ['hypertension', '-'],
    ]);
  });
});

describe('a problem keeps its acuity and flare, and not what is said of it', () => {
  const names = (assessment: string): string[] =>
    understandEncounter({ transcript: `[doctor] what brings you in today ?\n[patient] my breathing has been bad .\n[doctor] okay . on exam , there is wheezing .\n${assessment}` }).problems.map((p) => p.name.toLowerCase());

  it('keeps "acute", "severe" and "exacerbation" with the condition', () => {
    expect(names('[doctor] your third diagnosis is acute heart failure , we will start lasix 20 mg daily .')).toEqual(['acute heart failure']);
    expect(names('[doctor] your severe asthma is well controlled .')).toEqual(['severe asthma']);
    expect(names("[doctor] so for your copd exacerbation , we'll start prednisone 40 mg daily .")).toEqual(['copd exacerbation']);
  });

  it('names "your chronic kidney disease is stable" as the disease, its state aside', () => {
    const facts = understandEncounter({ transcript: '[doctor] what brings you in today ?\n[patient] a checkup .\n[doctor] okay . on exam , your lungs are clear .\n[doctor] your chronic kidney disease is stable .' });
    expect(facts.problems.map((p) => [p.name.toLowerCase(), p.status])).toEqual([['chronic kidney disease', 'chronic']]);
  });
});

describe('abbreviations as clinicians write them', () => {
  it('writes COPD, MRI, HDL, A1c and EKG in capitals in the body, and leaves the header as given', () => {
    const note = writeNoteSync({
      transcript: "[doctor] what brings you in today ?\n[patient] my breathing has been bad .\n[doctor] okay . on exam , there is wheezing .\n[doctor] your hdl was 40 and your a1c was 7.2 . your mri was normal .\n[doctor] so for your copd exacerbation , we'll get an ekg and start prednisone 40 mg daily .",
      noteType: { type: 'soap', includeJson: true }, language: 'en', patientInfo: { name: 'Ent Cad' },
    });
    expect(note.markdown).toContain('Ent Cad');
    expect(note.markdown).toMatch(/\bHDL\b/);
    expect(note.markdown).toMatch(/\bHemoglobin A1c\b/);
    expect(note.markdown).toMatch(/\bMRI\b/);
    expect(note.markdown).toMatch(/\bCOPD exacerbation\b/);
    expect(note.markdown).toMatch(/\bOrder EKG\b/);
    expect(note.markdown).not.toMatch(/\b(?:Copd|Hdl|Mri|Ekg|a1c)\b/);
    expect(JSON.stringify(note.json)).toMatch(/COPD exacerbation/);
  });
});

describe('the history a clinician writes from what the patient told', () => {
  const statements = (transcript: string): string[] =>
    (understandEncounter({ transcript }).statements ?? []).map((s) => s.text).filter((t) => !/^(?:Onset|Reports taking)/.test(t));
  const visit = (lines: string): string => `[doctor] hi sir , what brings you in today ?\n${lines}\n[doctor] okay , let me examine you .`;

  it('keeps a clause that names a condition or a symptom, in the patient\'s own pronoun', () => {
    const said = statements(visit(`[patient] i had a kidney transplant a few years ago for polycystic kidneys .
[patient] my arthritis is starting to get better .
[patient] i have had this wound on my right foot for a couple of weeks .`));
    expect(said).toContain('He has had this wound on his right foot for a couple of weeks.');
    expect(said).toContain('He had a kidney transplant a few years ago for polycystic kidneys.');
    expect(said).toContain('His arthritis is starting to get better.');
  });

  it('drops musing, chatter with only a weak clinical word, a pronoun pointing back, and someone else\'s history', () => {
    const said = statements(visit(`[patient] i guess i will start back at the gym in july .
[patient] i also wanted to mention that my feet swell a lot .
[patient] i was taking it regularly at home .
[patient] my sister has stomach problems too . she has irritable bowel syndrome .
[patient] i had those a couple years ago .
[patient] my arthritis is starting to get better .`));
    expect(said.filter((t) => /gym|mention|taking it|irritable|had those/i.test(t))).toEqual([]);
    // The history beside them is kept: the filters leave out what they name, not everything.
    expect(said).toContain('His arthritis is starting to get better.');
  });
});

/**
 * Doses of a drug the patient takes, changed in the plan: the twelfth reading found a metformin increase written
 * "Continue" at the morning dose only, and the dose taken (given in the reply) written wrong. Written for these tests.
 */
describe('a dose taken and the dose the plan changes it to', () => {
  const planned = (transcript: string): string[] => understandEncounter({ transcript }).problems.flatMap((p) => p.plan).filter((i) => i.kind === 'medication')
    .map((i) => [i.action, i.medication!.name, i.medication!.dose, i.medication!.frequency].filter(Boolean).join(' '));

  it('reads the dose and schedule the patient gives in reply to a question about the drug', () => {
    const f = understandEncounter({ transcript: '[doctor] are you still taking the metformin ?\n[patient] yes , 500 mg twice a day .' });
    expect(f.medications.map((m) => [m.name, m.dose, m.frequency])).toEqual([['Metformin', '500 mg', 'twice daily']]);
    const no = understandEncounter({ transcript: '[doctor] are you still taking the metformin ?\n[patient] no , i stopped , it was 500 mg twice a day .' });
    expect(no.medications.find((m) => m.name === 'Metformin')?.status).not.toBe('current');
  });

  it('writes a split schedule whole and calls it an increase by the day\'s total', () => {
    expect(planned([
      '[doctor] are you still taking the metformin ?',
      '[patient] yes , 500 mg twice a day .',
      '[doctor] for your diabetes , i want you to take the metformin 1000 mg in the morning and keep the 500 mg at night .',
    ].join('\n'))).toEqual(['increase Metformin 1000 mg in the morning and 500 mg at bedtime']);
  });

  it('calls a lower dose a decrease, and the same day\'s total on another schedule a change', () => {
    expect(planned("[patient] i take lisinopril 20 mg once a day .\n[doctor] for your blood pressure , i want you to take lisinopril 10 mg daily since you've been dizzy .")).toEqual(['decrease Lisinopril 10 mg once daily']);
    expect(planned('[patient] i take metformin 500 mg twice a day .\n[doctor] for your diabetes , take metformin 1000 mg once a day instead .')).toEqual(['change Metformin 1000 mg once daily']);
  });
});

describe('a current drug\'s dose said before it, its split day, and its schedule given in reply', () => {
  it('reads "1000 mg of tylenol in the morning and 500 mg at night" as one drug\'s day', () => {
    const m = meds('[doctor] what do you take for the pain ?\n[patient] i take 1000 mg of tylenol in the morning and 500 mg at night .');
    expect(m['acetaminophen'] ?? m['tylenol']).toMatchObject({ dose: '1000 mg', frequency: 'in the morning and 500 mg at bedtime' });
  });

  it('gives each drug its own dose when two are listed with their doses before them', () => {
    const m = meds('[doctor] the form says you are on 10 mg of norvasc daily and carvedilol 25 mg twice a day .\n[patient] yes .');
    expect(m['amlodipine'] ?? m['norvasc']).toMatchObject({ dose: '10 mg', frequency: 'once daily' });
    expect(m['carvedilol']).toMatchObject({ dose: '25 mg', frequency: 'twice daily' });
  });

  it('takes the schedule from the answer to "is that once a day or twice a day?", and not from a no', () => {
    const asked = '[doctor] what do you take for your diabetes ?\n[patient] metformin 500 mg .\n[doctor] is that once a day or twice a day ?\n';
    expect(meds(`${asked}[patient] twice a day .`)['metformin']).toMatchObject({ dose: '500 mg', frequency: 'twice daily' });
    expect(meds(`${asked}[patient] i'm not sure .`)['metformin']?.frequency).toBeUndefined();
  });
});

describe('a "continue" at another day\'s total', () => {
  it('writes an increase when the continued schedule gives more a day than the one taken', () => {
    const taken = "[doctor] what medications are you taking ?\n[patient] i take metformin 500 mg twice a day .\n[doctor] okay , let's talk about my assessment and plan .\n";
    expect(soap(`${taken}[doctor] for your diabetes , we'll continue the metformin 1000 mg in the morning and 500 mg in the evening .`)).toMatch(/Increase Metformin to 1000 mg in the morning and 500 mg in the evening/);
    expect(soap(`${taken}[doctor] for your diabetes , we'll continue the metformin 500 mg twice a day .`)).toMatch(/Continue Metformin 500 mg twice daily/);
    // The same day said another way ("1000 mg once a day" for "500 mg twice a day") is no increase.
    expect(soap(`${taken}[doctor] for your diabetes , we'll continue the metformin 1000 mg once a day .`)).not.toMatch(/Increase|Decrease/);
  });
});

describe('the patient\'s account of an injury told in one long breath', () => {
  const statements = (line: string) => (understandEncounter({ transcript: `[doctor] so i see that you injured your knee , what happened ?\n[patient] ${line}` }).statements ?? []).map((s) => s.text);
  it('keeps the event said after "and" in a clause too long to write whole, with the speaker as its subject', () => {
    expect(statements('i thought it was a good idea to go to the trampoline park with my friends and heard a snap and instant pain when i landed on the trampoline'))
      .toEqual(['The patient heard a snap and instant pain when the patient landed on the trampoline.']);
  });

  it('keeps a short "I slipped and fell" as one event', () => {
    expect(statements('i slipped and fell on the ice in my driveway yesterday')).toEqual(['The patient slipped and fell on the ice in the patient\'s driveway yesterday.']);
  });
});

describe('a schedule the patient corrects', () => {
  const said = (a: string, b: string) => meds(`[doctor] hi .\n[patient] hi .\n[doctor] ${a}\n[patient] ${b}`);
  it('takes the patient\'s schedule over the one the clinician asked or read out, and keeps the drug current', () => {
    expect(said("and you're taking metformin 500 mg once a day ?", "no , it's twice a day now .")['metformin']).toMatchObject({ dose: '500 mg', frequency: 'twice daily', status: 'current' });
    expect(said("i see you're on metformin 500 mg once a day .", 'actually they increased it to twice a day .')['metformin']?.frequency).toBe('twice daily');
  });

  it('keeps a stop a stop, and takes nothing from a reply about another drug', () => {
    expect(said('are you still taking the metformin ?', 'no , i stopped it last month .')['metformin']?.status).toBe('stopped');
    expect(said("i see you're on metformin 500 mg once a day .", "yes , and i take lisinopril twice a day .")['metformin']?.frequency).toBe('once daily');
  });
});

describe('a drug the clinician proposes, and one named in answer to what is taken', () => {
  it('lists no proposed drug as taken, and orders it', () => {
    const t = "[doctor] hi , how is your asthma ?\n[patient] i use my wixela most days .\n[doctor] i want to put you on alvesco , it's two puffs twice a day .\n[patient] okay .";
    expect(meds(t)['alvesco']?.status).not.toBe('current');
    expect(soap(t)).toMatch(/Start Alvesco 2 puffs twice daily/);
    expect(meds("[doctor] hi .\n[doctor] the thing about alvesco is that it would be two puffs twice a day .")['alvesco']?.status).not.toBe('current');
  });

  it('lists a drug named in answer to "what are you doing for the pain?" as taken, without the dose proposed later', () => {
    const t = "[doctor] what are you doing for the pain today ?\n[patient] some exercises , ice and mobic .\n[doctor] i'm going to give you meloxicam 15 mg and i want you to take that daily .";
    const m = Object.values(meds(t)).find((x) => /mobic|meloxicam/i.test(x.name));
    expect(m?.status).toBe('current');
    expect(m?.dose).toBeUndefined();
  });
});

describe('a part said to bother the patient', () => {
  const symptoms = (line: string) => understandEncounter({ transcript: `[doctor] what brings you in today ?\n[patient] ${line}` }).symptoms.map((s) => [s.term, s.system, s.laterality]);
  it('reads "bothering me", "acting up" and "flaring up" of a body part as its pain, in its own system', () => {
    expect(symptoms('my lower back has been bothering me for a few months .')).toEqual([['lower back pain', 'Musculoskeletal', undefined]]);
    expect(symptoms('my right knee is flaring up again .')).toEqual([['knee pain', 'Musculoskeletal', 'right']]);
    expect(symptoms('my throat bothers me when i swallow .')).toEqual([['throat pain', 'HEENT', undefined]]);
  });

  it('reads nothing from what bothers the patient without a body part', () => {
    expect(symptoms('the noise at night has been bothering me a lot .')).toEqual([]);
  });
});

describe('a surgery\'s date the patient corrects', () => {
  const surgical = (reply: string) => understandEncounter({ transcript: `[doctor] hi .\n[patient] hi .\n[doctor] i see you had a right knee replacement in 2018 .\n[patient] ${reply}` }).history.filter((h) => h.kind === 'surgical').map((h) => h.when);
  it('dates the surgery as the patient corrects it, and keeps the date a yes confirms', () => {
    expect(surgical('no , that was in the spring of 2020 .')).toEqual(['in the spring of 2020']);
    expect(surgical('yes , it went well .')).toEqual(['in 2018']);
  });
});

describe('a likeness', () => {
  const symptoms = (line: string) => understandEncounter({ transcript: `[doctor] how does it feel ?\n[patient] ${line}` }).symptoms.map((s) => [s.term, s.presence]);
  it('reads no symptom from what a pain is likened to', () => {
    expect(symptoms("it's sore , kind of like an old bruise .").some(([t]) => /bruis/.test(t!))).toBe(false);
    expect(symptoms("it's like a electrical tooth ache and it goes down the whole leg .").some(([t]) => /tooth/.test(t!))).toBe(false);
  });

  it('still reads a symptom said with "I feel like"', () => {
    expect(symptoms('i feel like i have a fever every night .')).toContainEqual(['fever', 'reported']);
  });
});
