/**
 * One lexicon of clinical findings: symptoms (with their review-of-systems body system),
 * conditions and exam regions. Each entry has the name a note writes, the written synonyms and
 * abbreviations that name it (lower case; spaces also match hyphens), and, for symptoms patients
 * describe in their own words, a `spoken` pattern the conversation reader looks for ("threw up",
 * "can't catch my breath"). Hand-written from general clinical knowledge. Read by extraction
 * (synonyms) and the embedded note writer (spoken patterns, body systems, exam regions).
 */
import type { PhraseEntry } from './phrase-match.js';

/** Review-of-systems body system of a symptom. */
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

/** One finding of the lexicon. */
export interface FindingEntry {
  /** The name a note writes, and the canonical name extraction reports for abbreviations. */
  term: string;
  system?: BodySystem;
  /** Other written names and abbreviations (lower case). */
  synonyms: readonly string[];
  /** How patients say it in conversation; only symptoms with one are read from dialogue. */
  spoken?: RegExp;
}

const s = (term: string, system: BodySystem, synonyms: string, spoken?: RegExp): FindingEntry => {
  const entry: FindingEntry = { term, system, synonyms: synonyms.split('|').map((x) => x.trim()).filter(Boolean) };
  if (spoken) entry.spoken = spoken;
  return entry;
};

/** Symptoms: those patients describe in their own words first, in the order notes list them. */
export const SYMPTOMS: readonly FindingEntry[] = [
  s('fever', 'Constitutional', 'fevers|febrile|pyrexia', /\bfevers?\b|\bfeverish\b/i),
  s('chills', 'Constitutional', 'rigors', /\bchills?\b/i),
  // Sweats said without "night" ("any sweats or clamminess?") are sweating, not night sweats.
  s('night sweats', 'Constitutional', '', /\bnight sweat(?:s|ing)?\b|\bsweat(?:s|ing)? (?:at night|in the night|through the night)\b/i),
  s('fatigue', 'Constitutional', 'tiredness|tired|malaise', /\bfatigue\b|\btired(ness)?\b|\bexhausted\b/i),
  // "Trying to lose weight", "weight loss is part of the treatment": an aim, not the symptom.
  s('weight loss', 'Constitutional', '', /(?<!\b(?:and|for|with|on|about|plan|program|goal|goals)\s)\bweight loss\b(?!\s+(?:is|are|would|will|program|goals?|plan|surgery|medication|medicine|pills?))|(?<!\b(?:to|trying|try|tried|want|wants|wanted|need|needs|hoping|hope|plan|planning|going)\s(?:to\s)?)\blos(t|e|ing) (any )?weight\b/i),
  s('weight gain', 'Constitutional', '', /\bweight gain\b|\bgain(ed|ing)? (any )?weight\b/i),
  s('loss of appetite', 'Constitutional', 'anorexia|decreased appetite', /\b(loss of |decreased |poor )appetite\b/i),
  s('headache', 'Neurological', 'headaches|cephalgia', /\bheadaches?\b/i),
  s('dizziness', 'Neurological', 'dizzy|vertigo', /\bdizz(y|iness)\b/i),
  s('lightheadedness', 'Neurological', 'lightheaded', /\blight-?headed(ness)?\b/i),
  s('numbness', 'Neurological', '', /\bnumb(ness)?\b/i),
  s('tingling', 'Neurological', '', /\btingl(ing|y|e)\b|\bpins and needles\b/i),
  s('weakness', 'Neurological', '', /\bweak(ness)?\b/i),
  s('syncope', 'Neurological', 'fainting|passed out|loss of consciousness', /\b(pass(ed)? out|faint(ed|ing)?|loss of consciousness|blackout|black out|syncope)\b/i),
  s('vision changes', 'HEENT', 'visual changes|changes in vision|change in vision', /\b(vision|visual|blurry|blurred)\b/i),
  s('sore throat', 'HEENT', 'throat pain', /\bsore throat\b/i),
  s('nasal congestion', 'HEENT', 'congestion', /\bcongest(ion|ed)\b|\bstuffy\b|\brunny nose\b/i),
  s('hearing loss', 'HEENT', 'decreased hearing', /\bhearing\b/i),
  s('chest pain', 'Cardiovascular', 'chest pressure|chest tightness', /\bchest (pain|pressure|tightness|discomfort)\b|\bchest hurt/i),
  s('palpitations', 'Cardiovascular', '', /\bpalpitations?\b|\bheart (racing|pounding|flutter)/i),
  s('leg swelling', 'Cardiovascular', 'ankle swelling', /\b(leg|ankle|feet|foot|legs|ankles) swell|\bswelling in (your|my|the) (legs?|ankles?|feet)\b|\bswollen (legs?|ankles?|feet)\b/i),
  s('shortness of breath', 'Respiratory', 'sob|dyspnea|breathlessness|difficulty breathing', /\bshort(ness)? of breath\b|\bbreathless\b|\btrouble breathing\b|\bcatch (my|your) breath\b/i),
  s('cough', 'Respiratory', 'coughing', /\bcough(ing)?\b/i),
  s('wheezing', 'Respiratory', '', /\bwheez(e|ing)\b/i),
  s('nausea', 'Gastrointestinal', 'nauseous', /\bnause(a|ous|ated)\b/i),
  s('vomiting', 'Gastrointestinal', 'emesis|throwing up', /\bvomit(ing|ed)?\b|\bthrow(ing|n)? up\b|\bthrew up\b/i),
  s('diarrhea', 'Gastrointestinal', 'loose stools', /\bdiarrh?(o)?ea\b/i),
  s('constipation', 'Gastrointestinal', '', /\bconstipat(ion|ed)\b/i),
  s('abdominal pain', 'Gastrointestinal', 'stomach pain|belly pain', /\b(abdominal|stomach|belly) (pain|ache|cramp)|\bstomachache\b|\bbelly hurt/i),
  s('heartburn', 'Gastrointestinal', '', /\bheartburn\b|\breflux\b/i),
  s('blood in the stool', 'Gastrointestinal', '', /\bblood in (your|my|the) (stool|poop|bowel)|\bbloody stool|\bblack stool|\bmelena\b/i),
  s('bloating', 'Gastrointestinal', '', /\bbloat(ed|ing)\b/i),
  s('dysuria', 'Genitourinary', 'burning with urination|painful urination', /\bburning (with|when) (you |i )?(urinat|pee)|\bpainful urination\b|\bdysuria\b/i),
  s('hematuria', 'Genitourinary', 'blood in urine', /\bblood in (your|my|the) urine\b|\bhematuria\b/i),
  // Before the group: "leaking urine" is incontinence, a member of the urinary symptoms a denial of the group would deny.
  s('urinary incontinence', 'Genitourinary', 'incontinence|leaking urine|loss of bladder control', /\bincontinen(?:ce|t)\b|\bleak(?:ing|s|ed)? (?:urine|pee)\b|\bbladder control\b|\b(?:wet|wetting|wets) (?:myself|himself|herself|themselves|the bed)\b|\b(?:wear|wears|wearing) (?:a |adult )?(?:diapers?|depends|incontinence pads?)\b/i),
  s('urinary symptoms', 'Genitourinary', '', /\burinary\b|\burinat(e|ing|ion)\b|\bpee(ing)? (more|a lot)\b/i),
  s('joint pain', 'Musculoskeletal', 'arthralgia', /\bjoint (pain|aches?)\b/i),
  s('back pain', 'Musculoskeletal', 'low back pain', /\bback (pain|ache)\b|\bbackache\b/i),
  s('myalgia', 'Musculoskeletal', 'muscle aches|body aches', /\bmuscle (aches?|pain)\b|\bbody aches?\b|\bmyalgias?\b/i),
  s('rash', 'Skin', '', /\brash(es)?\b/i),
  s('bruising', 'Skin', 'easy bruising', /\bbruis(e|es|ing)\b/i),
  s('anxiety', 'Psychiatric', '', /\banxi(ety|ous)\b/i),
  s('depression', 'Psychiatric', 'depressed mood', /\bdepress(ion|ed)\b/i),
  s('insomnia', 'Psychiatric', 'trouble sleeping', /\b(trouble|difficulty|problems?) sleeping\b|\binsomnia\b/i),
  s('polydipsia', 'Endocrine', 'excessive thirst', /\b(thirst(y)?|polydipsia)\b/i),
  s('easy bleeding', 'Hematologic', 'bleeding easily', /\bbleed(ing)? easily\b|\beasy bleeding\b/i),
  // Written findings: read from notes, not from conversation.
  s('productive cough', 'Respiratory', ''),
  s('blurred vision', 'HEENT', 'blurry vision'),
  s('edema', 'Cardiovascular', 'swelling'),
  s('ear pain', 'HEENT', 'otalgia'),
  s('runny nose', 'HEENT', 'rhinorrhea'),
  s('melena', 'Gastrointestinal', 'black stools'),
  s('hematochezia', 'Gastrointestinal', 'blood in stool|rectal bleeding'),
  s('hemoptysis', 'Respiratory', 'coughing up blood'),
  s('orthopnea', 'Respiratory', ''),
  s('seizure', 'Neurological', 'seizures'),
  s('confusion', 'Neurological', 'altered mental status'),
  s('tremor', 'Neurological', ''),
  s('itching', 'Skin', 'pruritus'),
  s('diaphoresis', 'Constitutional', 'sweating', /\b(?<!night )sweats\b(?! (?:at|in|through) (?:the )?night)|\b(?<!night )sweating\b(?! (?:at|in|through) (?:the )?night)|\bclammy\b|\bclamminess\b/i),
  s('polyuria', 'Genitourinary', 'frequent urination'),
  s('urinary frequency', 'Genitourinary', ''),
  s('urgency', 'Genitourinary', ''),
  s('neck pain', 'Musculoskeletal', ''),
  s('knee pain', 'Musculoskeletal', ''),
  s('hip pain', 'Musculoskeletal', ''),
  s('shoulder pain', 'Musculoskeletal', ''),
  s('leg pain', 'Musculoskeletal', ''),
  s('arm pain', 'Musculoskeletal', ''),
  s('pelvic pain', 'Genitourinary', ''),
  s('flank pain', 'Genitourinary', ''),
  s('toothache', 'HEENT', ''),
  s('sneezing', 'HEENT', ''),
  s('sputum', 'Respiratory', ''),
  s('dysphagia', 'Gastrointestinal', 'difficulty swallowing'),
  s('hoarseness', 'HEENT', ''),
  s('photophobia', 'HEENT', ''),
  s('neck stiffness', 'Musculoskeletal', ''),
  s('jaw pain', 'Musculoskeletal', ''),
  s('claudication', 'Cardiovascular', ''),
  s('hallucinations', 'Psychiatric', ''),
  s('suicidal ideation', 'Psychiatric', ''),
];

/**
 * Findings a note may name as a group ("denies urinary symptoms"): the members a clinician has in
 * mind. A group is denied when a member is denied and none is reported.
 */
export const FINDING_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'urinary symptoms': ['dysuria', 'hematuria', 'polyuria', 'urinary frequency', 'urgency', 'urinary incontinence'],
  'vision changes': ['blurred vision'],
};

const CONDITION_TABLE = `
hypertension|htn|high blood pressure; type 2 diabetes mellitus|type 2 diabetes|type two diabetes|type ii diabetes|t2dm|dm2|dm type 2|diabetes mellitus type 2|diabetes type 2|diabetes type two|niddm; type 1 diabetes mellitus|type 1 diabetes|type one diabetes|type i diabetes|t1dm|dm1
diabetes|diabetes mellitus|dm; hyperlipidemia|hld|high cholesterol|dyslipidemia|hypercholesterolemia; coronary artery disease|cad|ischemic heart disease
atrial fibrillation|afib|a-fib|af; congestive heart failure|chf|heart failure|hfref|hfpef; copd|chronic obstructive pulmonary disease|emphysema; asthma
chronic kidney disease|ckd; gerd|gastroesophageal reflux disease|acid reflux|reflux; hypothyroidism; hyperthyroidism; obesity; osteoarthritis|oa|degenerative joint disease
rheumatoid arthritis|ra; depression|major depressive disorder|mdd; anxiety disorder|generalized anxiety disorder|gad; migraine|migraines; stroke|cva|cerebrovascular accident
transient ischemic attack|tia; deep vein thrombosis|dvt; pulmonary embolism|pe; pneumonia|community-acquired pneumonia|cap; urinary tract infection|uti; sepsis
anemia|iron deficiency anemia; osteoporosis; obstructive sleep apnea|osa|sleep apnea; benign prostatic hyperplasia|bph; gout; cellulitis; acute bronchitis|bronchitis
sinusitis|acute sinusitis; otitis media|ear infection; pharyngitis|strep throat|streptococcal pharyngitis; influenza|flu; covid-19|covid|sars-cov-2 infection
hepatitis c|hcv; hepatitis b|hbv; cirrhosis; pancreatitis; appendicitis; cholecystitis; nephrolithiasis|kidney stones|kidney stone; hiv; epilepsy|seizure disorder
parkinson's disease|parkinson disease|parkinsons; dementia; alzheimer's disease|alzheimer disease; bipolar disorder; schizophrenia; ptsd|post-traumatic stress disorder
adhd|attention deficit hyperactivity disorder; psoriasis; eczema|atopic dermatitis; lupus|sle|systemic lupus erythematosus; hypokalemia; hyperkalemia; dehydration
myocardial infarction|mi|heart attack|stemi|nstemi; angina; peripheral artery disease|pad|peripheral vascular disease; aortic stenosis; breast cancer; prostate cancer
lung cancer; colon cancer|colorectal cancer; hypertriglyceridemia; prediabetes; metabolic syndrome; fatty liver|nafld|hepatic steatosis; diverticulitis; irritable bowel syndrome|ibs
crohn's disease|crohn disease; ulcerative colitis; hyponatremia; acute kidney injury|aki; chronic pain; fibromyalgia; neuropathy|peripheral neuropathy|diabetic neuropathy
glaucoma; cataract|cataracts; macular degeneration; allergic rhinitis|seasonal allergies|hay fever; conjunctivitis|pink eye; tonsillitis; gastroenteritis|stomach flu
concussion; fracture; ankle sprain; sprain; tendinitis|tendonitis; carpal tunnel syndrome|carpal tunnel; sciatica; lumbar radiculopathy|radiculopathy; plantar fasciitis
hypothyroid; alcohol use disorder|alcoholism; opioid use disorder; tobacco use disorder|nicotine dependence; insomnia disorder; obesity class 2; vitamin d deficiency
acne|acne vulgaris; rosacea; warts|wart|verruca|verruca vulgaris; onychomycosis|toenail fungus|nail fungus; tinea pedis|athlete's foot; seborrheic dermatitis; contact dermatitis
actinic keratosis; basal cell carcinoma; squamous cell carcinoma; melanoma; herpes zoster|shingles; impetigo; scabies; hidradenitis suppurativa
rotator cuff tear|rotator cuff tendinopathy|rotator cuff tendinitis; meniscus tear|meniscal tear|torn meniscus; acl tear|anterior cruciate ligament tear; trigger finger; bursitis
de quervain's tenosynovitis|de quervain tenosynovitis; lateral epicondylitis|tennis elbow; medial epicondylitis|golfer's elbow; achilles tendinitis|achilles tendonitis
hemorrhoids; anal fissure; peptic ulcer disease|pud|stomach ulcer; celiac disease; hiatal hernia; inguinal hernia; diverticulosis; gastroparesis
overactive bladder; interstitial cystitis; pyelonephritis|kidney infection; prostatitis; erectile dysfunction; endometriosis; polycystic ovary syndrome|pcos
thrombocytopenia; sickle cell disease; multiple sclerosis; restless legs syndrome; bell's palsy|bell palsy; trigeminal neuralgia; essential tremor; panic disorder
obsessive-compulsive disorder|ocd; mitral valve prolapse; supraventricular tachycardia|svt; pericarditis; varicose veins; lymphedema; sarcoidosis; pulmonary hypertension
hyperparathyroidism; thyroid nodule|thyroid nodules; goiter; hashimoto's thyroiditis|hashimoto thyroiditis; graves' disease|graves disease; lyme disease; bacterial vaginosis
tic disorder|transient tic disorder|tics|motor tics|vocal tics; autism spectrum disorder|autism; croup; bronchiolitis; otitis externa|swimmer's ear; cerumen impaction|impacted cerumen|earwax impaction
gastritis; costochondritis; umbilical hernia; ventral hernia|incisional hernia; ganglion cyst; baker's cyst|baker cyst|popliteal cyst; bunion|hallux valgus; morton's neuroma|morton neuroma
shin splints|medial tibial stress syndrome; patellofemoral pain syndrome|runner's knee; iliotibial band syndrome|it band syndrome; adhesive capsulitis|frozen shoulder; whiplash
lumbar disc herniation|herniated disc|disc herniation|herniated lumbar disc|bulging disc; spinal stenosis|lumbar stenosis|lumbar spinal stenosis; spondylolisthesis; scoliosis; osteopenia
uterine fibroids|fibroids; ovarian cyst; mastitis; vaginal yeast infection|yeast infection|vaginal candidiasis; chlamydia; gonorrhea; infectious mononucleosis|mononucleosis
herpes labialis|cold sores|cold sore; labyrinthitis; benign paroxysmal positional vertigo|bppv; pneumothorax; lipoma; epidermoid cyst|sebaceous cyst; ingrown toenail|ingrown nail; paronychia
food allergy|peanut allergy; anaphylaxis; hypoglycemia; chronic fatigue syndrome; temporomandibular joint disorder|tmj|tmd; sleep deprivation; postpartum depression; premenstrual syndrome|pms
`;

/** Conditions and diagnoses (term first, then synonyms and abbreviations). */
export const CONDITIONS: readonly FindingEntry[] = CONDITION_TABLE.split(/[;\n]/)
  .map((group) => group.split('|').map((x) => x.trim()).filter(Boolean))
  .filter((names) => names.length > 0)
  .map(([term, ...synonyms]) => ({ term: term as string, synonyms }));

/** A finding list as phrase-matcher entries (term and synonyms; the value is the entry). */
export function findingPhrases(entries: readonly FindingEntry[]): PhraseEntry<FindingEntry>[] {
  return entries.map((e) => ({ value: e, phrases: [e.term, ...e.synonyms] }));
}

/** Symptoms a piece of conversation names in the patient's words, in the order of the table. */
export function symptomsIn(text: string): (FindingEntry & { system: BodySystem; spoken: RegExp })[] {
  return SYMPTOMS.filter((e): e is FindingEntry & { system: BodySystem; spoken: RegExp } => e.spoken !== undefined && e.system !== undefined && e.spoken.test(text));
}

// A condition's body system by the words of its name, for conditions the symptom table does not hold.
const CONDITION_SYSTEMS: [RegExp, BodySystem][] = [
  [/\b(?:heart|cardi\w*|coronary|hypertension|blood pressure|angina|atrial|fibrillation|murmur|valve|aortic|mitral|arrhythmia|tachycardia|myocardial|pericard\w*|vein|venous|thrombosis|dvt|artery|vascular|edema|syncope|palpitations|chf|cad|htn|afib)\b/i, 'Cardiovascular'],
  [/\b(?:lung|pulmonary|asthma|copd|bronch\w*|pneumonia|emphysema|apnea|respiratory|sarcoidosis|cough|wheez\w*|shortness of breath)\b/i, 'Respiratory'],
  [/\b(?:stomach|gastr\w*|bowel|colitis|crohn\w*|reflux|gerd|liver|hepat\w*|cirrhosis|pancrea\w*|append\w*|cholecyst\w*|gallbladder|diverticul\w*|hemorrhoids|anal|celiac|hernia|peptic|ibs|constipation|diarrhea|abdominal|nausea|vomiting|fissure)\b/i, 'Gastrointestinal'],
  [/\b(?:kidney|renal|nephr\w*|urinary|uti|bladder|prostat\w*|bph|pyelonephritis|cystitis|erectile|vagin\w*|endometriosis|ovar\w*|menopause|pregnan\w*|testicular|ckd|aki)\b/i, 'Genitourinary'],
  [/\b(?:arthritis|osteoarthritis|joint|knee|hip|shoulder|elbow|wrist|ankle|foot|hand|finger|back|spine|lumbar|cervical|neck|strain|sprain|fracture|tear|tendin\w*|tendon\w*|bursitis|meniscus|meniscal|ligament|acl|rotator cuff|gout|osteoporosis|fibromyalgia|sciatica|radiculopathy|fasciitis|epicondylitis|tenosynovitis|carpal tunnel|trigger finger|muscle|musculoskeletal|contusion|dislocation|costochondritis|ganglion|baker'?s?|bunion|hallux|shin splints|patellofemoral|iliotibial|capsulitis|whiplash|disc|stenosis|spondylolisthesis|scoliosis|osteopenia|temporomandibular|tmj|tmd)\b/i, 'Musculoskeletal'],
  [/\b(?:migraine|headache|seizure|epilep\w*|stroke|cva|tia|neuropath\w*|neuralgia|parkinson\w*|dementia|alzheimer\w*|multiple sclerosis|concussion|palsy|tremor|restless legs|vertigo|numbness|neurolog\w*|tics?|tic disorder|neuroma|bppv)\b/i, 'Neurological'],
  [/\b(?:depress\w*|anxiety|panic|bipolar|schizophren\w*|ptsd|adhd|ocd|insomnia|alcohol|opioid|tobacco|nicotine|substance|autism|postpartum depression)\b/i, 'Psychiatric'],
  [/\b(?:skin|acne|rosacea|rash|dermatitis|eczema|psoriasis|cellulitis|wart|warts|verruca|onychomycosis|tinea|keratosis|carcinoma|melanoma|zoster|shingles|impetigo|scabies|hidradenitis|lesion|mole|wound|laceration|burn|abscess|urticaria|hives|lipoma|epidermoid|sebaceous|paronychia|ingrown|cold sores?|herpes labialis)\b/i, 'Skin'],
  [/\b(?:diabet\w*|thyroid\w*|hypothyroid\w*|hyperthyroid\w*|goiter|graves|hashimoto\w*|cholesterol|lipid\w*|hyperlipidemia|dyslipidemia|obesity|weight|prediabetes|metabolic|parathyroid\w*|vitamin|sugars?|a1c)\b/i, 'Endocrine'],
  [/\b(?:anemia|thrombocytopenia|sickle cell|bleeding|clotting|iron)\b/i, 'Hematologic'],
  [/\b(?:sinus\w*|otitis|ear|eye|cerumen|earwax|labyrinthitis|croup|conjunctivitis|glaucoma|cataracts?|macular|pharyngitis|throat|tonsil\w*|rhinitis|allerg\w*|nasal|nose|dental|tooth)\b/i, 'HEENT'],
];

/** The body system a problem's name belongs to ("acne" -> Skin, "right knee pain" -> Musculoskeletal), when its words say. */
export function systemOfName(name: string): BodySystem | undefined {
  return symptomsIn(name)[0]?.system ?? CONDITION_SYSTEMS.find(([re]) => re.test(name))?.[1];
}

/** Exam regions as ACI-style bullets name them (anatomy words that place an exam finding). */
export const EXAM_REGIONS: { label: string; re: RegExp }[] = [
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
