/**
 * Clinical vocabulary the rules use: symptoms with their review-of-systems body system, drug
 * name shapes, and exam regions. Hand-written from general clinical knowledge.
 */

export type BodySystem =
  | 'Constitutional'
  | 'HEENT'
  | 'Cardiovascular'
  | 'Respiratory'
  | 'Gastrointestinal'
  | 'Genitourinary'
  | 'Musculoskeletal'
  | 'Neurological'
  | 'Psychiatric'
  | 'Skin'
  | 'Endocrine'
  | 'Hematologic';

/** Symptom phrases (as a clinician would write them) and how they are spoken. */
export const SYMPTOMS: { term: string; re: RegExp; system: BodySystem }[] = [
  { term: 'fever', re: /\bfevers?\b|\bfeverish\b/i, system: 'Constitutional' },
  { term: 'chills', re: /\bchills?\b/i, system: 'Constitutional' },
  { term: 'night sweats', re: /\b(night )?sweats\b|\bsweating\b/i, system: 'Constitutional' },
  { term: 'fatigue', re: /\bfatigue\b|\btired(ness)?\b|\bexhausted\b/i, system: 'Constitutional' },
  { term: 'weight loss', re: /\bweight loss\b|\blos(t|e|ing) (any )?weight\b/i, system: 'Constitutional' },
  { term: 'weight gain', re: /\bweight gain\b|\bgain(ed|ing)? (any )?weight\b/i, system: 'Constitutional' },
  { term: 'loss of appetite', re: /\b(loss of |decreased |poor )appetite\b/i, system: 'Constitutional' },
  { term: 'headache', re: /\bheadaches?\b/i, system: 'Neurological' },
  { term: 'dizziness', re: /\bdizz(y|iness)\b/i, system: 'Neurological' },
  { term: 'lightheadedness', re: /\blight-?headed(ness)?\b/i, system: 'Neurological' },
  { term: 'numbness', re: /\bnumb(ness)?\b/i, system: 'Neurological' },
  { term: 'tingling', re: /\btingl(ing|y|e)\b|\bpins and needles\b/i, system: 'Neurological' },
  { term: 'weakness', re: /\bweak(ness)?\b/i, system: 'Neurological' },
  { term: 'loss of consciousness', re: /\b(pass(ed)? out|faint(ed|ing)?|loss of consciousness|blackout|black out)\b/i, system: 'Neurological' },
  { term: 'vision changes', re: /\b(vision|visual|blurry|blurred)\b/i, system: 'HEENT' },
  { term: 'sore throat', re: /\bsore throat\b/i, system: 'HEENT' },
  { term: 'nasal congestion', re: /\bcongest(ion|ed)\b|\bstuffy\b|\brunny nose\b/i, system: 'HEENT' },
  { term: 'hearing loss', re: /\bhearing\b/i, system: 'HEENT' },
  { term: 'chest pain', re: /\bchest (pain|pressure|tightness|discomfort)\b|\bchest hurt/i, system: 'Cardiovascular' },
  { term: 'palpitations', re: /\bpalpitations?\b|\bheart (racing|pounding|flutter)/i, system: 'Cardiovascular' },
  { term: 'leg swelling', re: /\b(leg|ankle|feet|foot|legs|ankles) swell|\bswelling in (your|my|the) (legs?|ankles?|feet)\b|\bswollen (legs?|ankles?|feet)\b/i, system: 'Cardiovascular' },
  { term: 'shortness of breath', re: /\bshort(ness)? of breath\b|\bbreathless\b|\btrouble breathing\b|\bcatch (my|your) breath\b/i, system: 'Respiratory' },
  { term: 'cough', re: /\bcough(ing)?\b/i, system: 'Respiratory' },
  { term: 'wheezing', re: /\bwheez(e|ing)\b/i, system: 'Respiratory' },
  { term: 'nausea', re: /\bnause(a|ous|ated)\b/i, system: 'Gastrointestinal' },
  { term: 'vomiting', re: /\bvomit(ing|ed)?\b|\bthrow(ing|n)? up\b|\bthrew up\b/i, system: 'Gastrointestinal' },
  { term: 'diarrhea', re: /\bdiarrh?(o)?ea\b/i, system: 'Gastrointestinal' },
  { term: 'constipation', re: /\bconstipat(ion|ed)\b/i, system: 'Gastrointestinal' },
  { term: 'abdominal pain', re: /\b(abdominal|stomach|belly) (pain|ache|cramp)|\bstomachache\b|\bbelly hurt/i, system: 'Gastrointestinal' },
  { term: 'heartburn', re: /\bheartburn\b|\breflux\b/i, system: 'Gastrointestinal' },
  { term: 'blood in the stool', re: /\bblood in (your|my|the) (stool|poop|bowel)|\bbloody stool|\bblack stool|\bmelena\b/i, system: 'Gastrointestinal' },
  { term: 'bloating', re: /\bbloat(ed|ing)\b/i, system: 'Gastrointestinal' },
  { term: 'dysuria', re: /\bburning (with|when) (you |i )?(urinat|pee)|\bpainful urination\b|\bdysuria\b/i, system: 'Genitourinary' },
  { term: 'hematuria', re: /\bblood in (your|my|the) urine\b|\bhematuria\b/i, system: 'Genitourinary' },
  { term: 'urinary symptoms', re: /\burinary\b|\burinat(e|ing|ion)\b|\bpee(ing)? (more|a lot)\b/i, system: 'Genitourinary' },
  { term: 'joint pain', re: /\bjoint (pain|aches?)\b/i, system: 'Musculoskeletal' },
  { term: 'back pain', re: /\bback (pain|ache)\b|\bbackache\b/i, system: 'Musculoskeletal' },
  { term: 'muscle aches', re: /\bmuscle (aches?|pain)\b|\bbody aches?\b|\bmyalgias?\b/i, system: 'Musculoskeletal' },
  { term: 'rash', re: /\brash(es)?\b/i, system: 'Skin' },
  { term: 'bruising', re: /\bbruis(e|es|ing)\b/i, system: 'Skin' },
  { term: 'anxiety', re: /\banxi(ety|ous)\b/i, system: 'Psychiatric' },
  { term: 'depression', re: /\bdepress(ion|ed)\b/i, system: 'Psychiatric' },
  { term: 'trouble sleeping', re: /\b(trouble|difficulty|problems?) sleeping\b|\binsomnia\b/i, system: 'Psychiatric' },
  { term: 'excessive thirst', re: /\b(thirst(y)?|polydipsia)\b/i, system: 'Endocrine' },
  { term: 'easy bleeding', re: /\bbleed(ing)? easily\b|\beasy bleeding\b/i, system: 'Hematologic' },
];

/** Symptoms named in a piece of text, in the order of the table. */
export function symptomsIn(text: string): typeof SYMPTOMS {
  return SYMPTOMS.filter((s) => s.re.test(text));
}

// Common drug name endings; a word with one of these is almost always a drug.
const DRUG_SUFFIX =
  /^[a-z]{2,}(pril|sartan|olol|alol|dipine|statin|formin|gliptin|gliflozin|glutide|prazole|tidine|azepam|azolam|oxetine|aline|triptan|cillin|mycin|cycline|floxacin|oxacin|azole|conazole|vir|navir|mab|nib|tinib|parin|xaban|gatran|semide|thiazide|afil|sone|solone|olone|asone|profen|coxib|codone|morphone|phine|adol|pam|lam|barbital|triptyline|pramine|zodone|pine|done|ium|caine|tropin|terol|tropium|lukast|thyroxine|ine)$/i;
const COMMON_DRUGS = new Set(
  'aspirin tylenol acetaminophen ibuprofen advil motrin aleve naproxen lasix furosemide lisinopril metformin insulin lantus humalog novolog ozempic trulicity jardiance farxiga januvia glipizide atorvastatin lipitor simvastatin rosuvastatin crestor pravastatin norvasc amlodipine losartan valsartan hydrochlorothiazide metoprolol carvedilol atenolol propranolol coumadin warfarin eliquis apixaban xarelto rivaroxaban plavix clopidogrel prednisone medrol methylprednisolone albuterol ventolin proair symbicort advair flovent spiriva singulair montelukast zyrtec claritin allegra benadryl flonase omeprazole prilosec pantoprazole protonix nexium famotidine pepcid zantac synthroid levothyroxine zoloft sertraline prozac fluoxetine lexapro escitalopram celexa citalopram wellbutrin bupropion cymbalta duloxetine effexor venlafaxine xanax alprazolam ativan lorazepam klonopin clonazepam ambien trazodone gabapentin neurontin lyrica pregabalin tramadol oxycodone percocet norco hydrocodone morphine amoxicillin augmentin azithromycin zithromax keflex cephalexin doxycycline bactrim ciprofloxacin cipro levaquin flagyl metronidazole nitrofurantoin macrobid valtrex acyclovir tamiflu flexeril cyclobenzaprine robaxin meloxicam mobic celebrex colchicine allopurinol imitrex sumatriptan topamax topiramate keppra depakote lamictal lithium adderall ritalin vitamin iron ferrous calcium magnesium potassium folic b12 fish oil melatonin zofran ondansetron phenergan miralax colace senna metamucil imodium humira enbrel methotrexate plaquenil spironolactone aldactone digoxin nitroglycerin entresto hydralazine clonidine cozaar diovan toprol coreg zocor tricor fenofibrate zetia victoza glucophage glyburide pioglitazone actos steroid steroids cortisone epipen narcan suboxone methadone naltrexone prednisolone dexamethasone triamcinolone kenalog voltaren diclofenac lidocaine mupirocin bactroban nystatin diflucan fluconazole terbinafine lamisil estradiol progesterone testosterone finasteride flomax tamsulosin viagra cialis oxybutynin detrol'.split(
    ' ',
  ),
);
// Words with drug-like endings that are not drugs.
const NOT_DRUGS = new Set(['medicine', 'routine', 'urine', 'caffeine', 'nicotine', 'uterine', 'examine', 'determine', 'imagine', 'machine', 'engine', 'magazine', 'fine', 'line', 'mine', 'nine', 'wine', 'shine', 'spine', 'vaccine', 'saline', 'baseline', 'airline', 'deadline', 'online', 'define', 'decline', 'combine', 'genuine', 'feminine', 'masculine', 'discipline', 'intestine', 'done', 'none', 'gone', 'someone', 'anyone', 'everyone', 'phone', 'bone', 'alone', 'stone', 'tone', 'zone', 'cone', 'postpone', 'hormone', 'ozone', 'sone', 'person', 'reason', 'season', 'pine', 'opine', 'alpine', 'ium', 'stadium', 'podium', 'medium', 'premium', 'sodium', 'potassium', 'calcium', 'magnesium', 'condone', 'lam', 'pam', 'exam', 'spam', 'scam', 'program', 'diagram', 'gram', 'ultram', 'navir', 'caine', 'cocaine', 'hurricane', 'decline', 'outline', 'midline', 'guideline', 'hairline', 'headline', 'lifeline', 'sideline', 'timeline', 'borderline', 'trampoline', 'gasoline', 'pristine', 'doctrine', 'cuisine', 'marine', 'canine', 'bovine', 'divine', 'endocrine', 'quarantine', 'valentine', 'figurine', 'sunshine', 'turbine', 'combine', 'porcupine', 'adrenaline', 'iodine', 'chlorine', 'fluorine', 'morphine']);

/** True when a word looks like a drug name (known brand/generic, or a pharmacological ending). */
export function isDrugWord(word: string): boolean {
  const w = word.toLowerCase();
  if (COMMON_DRUGS.has(w)) return true;
  if (w.length < 6 || NOT_DRUGS.has(w)) return w === 'morphine';
  return DRUG_SUFFIX.test(w) && !/(ing|tion|ness|ment)$/.test(w);
}

/** Exam regions as ACI-style bullets name them. */
export const EXAM_SYSTEMS: { label: string; re: RegExp }[] = [
  { label: 'Vitals', re: /\b(blood pressure|heart rate|pulse ox|oxygen|temperature|respiratory rate|vital)\b/i },
  { label: 'Neck', re: /\bneck\b|\bthyroid\b|\bjvd\b|\bjugular\b|\bcarotid\b|\blymph/i },
  { label: 'Respiratory', re: /\blungs?\b|\bbreath sounds\b|\bwheez|\brales\b|\bcrackles\b|\brhonchi\b|\bauscultation\b/i },
  { label: 'Cardiovascular', re: /\bheart\b|\bmurmur\b|\brhythm\b|\bgallop\b|\brub\b|\bpulses?\b|\bcardiac\b/i },
  { label: 'Gastrointestinal', re: /\babdomen\b|\babdominal\b|\bbowel sounds\b|\bbelly\b|\bstomach\b|\bliver\b|\bspleen\b/i },
  { label: 'Musculoskeletal', re: /\b(knee|shoulder|hip|ankle|wrist|elbow|back|spine|joint|range of motion|strength|extremit|edema|muscle|finger|hand|foot|leg|arm|tender)/i },
  { label: 'Neurological', re: /\b(neuro|reflex|sensation|cranial|gait|alert|oriented)\w*/i },
  { label: 'Skin', re: /\b(skin|rash|lesion|wound|incision|bruis|erythema|laceration)\w*/i },
  { label: 'HEENT', re: /\b(eyes?|ears?|nose|throat|pupils|tympanic|oropharynx|mouth|sinus|head)\b/i },
];
