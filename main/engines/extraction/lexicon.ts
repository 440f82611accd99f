/**
 * Clinical vocabulary for the embedded reader. Lists are lower-case; each entry may carry
 * aliases (abbreviations and lay terms) after the canonical name, separated by `|`.
 */
const parse = (lines: string): string[][] =>
  lines.split('\n').map((l) => l.trim()).filter(Boolean).flatMap((l) => l.split(';')).map((e) => e.split('|').map((s) => s.trim()).filter(Boolean)).filter((e) => e.length > 0);

export const SYMPTOMS: string[][] = parse(`
chest pain|chest pressure|chest tightness; shortness of breath|sob|dyspnea|breathlessness|difficulty breathing; fever|fevers|febrile|pyrexia
chills|rigors; cough|coughing; productive cough; nausea|nauseous; vomiting|emesis|throwing up; diarrhea|loose stools; constipation
headache|headaches|cephalgia; dizziness|dizzy|lightheadedness|lightheaded|vertigo; fatigue|tiredness|tired|malaise; abdominal pain|stomach pain|belly pain
back pain|low back pain; palpitations; syncope|fainting|passed out; weight loss; weight gain; night sweats; rash; sore throat|throat pain
wheezing; edema|swelling|leg swelling|ankle swelling; dysuria|burning with urination|painful urination; hematuria|blood in urine; blurred vision|blurry vision
numbness; weakness; tingling; anxiety; insomnia|trouble sleeping; joint pain|arthralgia; myalgia|muscle aches|body aches; nasal congestion|congestion
runny nose|rhinorrhea; ear pain|otalgia; loss of appetite|anorexia|decreased appetite; heartburn; melena|black stools; hematochezia|blood in stool|rectal bleeding
hemoptysis|coughing up blood; orthopnea; seizure|seizures; confusion|altered mental status; tremor; itching|pruritus; diaphoresis|sweating
polyuria|frequent urination; polydipsia|excessive thirst; urinary frequency; urgency; neck pain; knee pain; hip pain; shoulder pain; leg pain; arm pain; pelvic pain
flank pain; toothache; sneezing; sputum; bloating; dysphagia|difficulty swallowing; hoarseness; photophobia; neck stiffness; jaw pain; claudication; hallucinations; suicidal ideation
`);

export const CONDITIONS: string[][] = parse(`
hypertension|htn|high blood pressure; type 2 diabetes mellitus|type 2 diabetes|t2dm|dm2|dm type 2|diabetes mellitus type 2|niddm; type 1 diabetes mellitus|type 1 diabetes|t1dm|dm1
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
concussion; fracture; ankle sprain|sprain; tendinitis|tendonitis; carpal tunnel syndrome; sciatica; lumbar radiculopathy|radiculopathy; plantar fasciitis
hypothyroid; alcohol use disorder|alcoholism; opioid use disorder; tobacco use disorder|nicotine dependence; insomnia disorder; obesity class 2; vitamin d deficiency
`);

/** Non-drug allergens commonly listed under allergies. */
export const ALLERGENS: string[] = ['penicillin', 'penicillins', 'sulfa', 'sulfa drugs', 'sulfonamides', 'codeine', 'latex', 'peanuts', 'peanut', 'shellfish', 'eggs', 'egg', 'bee stings', 'iodine', 'contrast', 'iv contrast', 'morphine', 'amoxicillin', 'cephalosporins', 'nsaids', 'aspirin', 'tree nuts', 'milk', 'soy', 'wheat', 'gluten', 'dust', 'pollen', 'cats', 'dogs', 'adhesive tape', 'erythromycin', 'tetracycline', 'ciprofloxacin', 'vancomycin', 'ibuprofen', 'lisinopril', 'ace inhibitors'];

export const ROUTES: [RegExp, string][] = [
  [/\b(?:po|p\.o\.|by mouth|orally|oral)\b/i, 'PO'],
  [/\b(?:iv|i\.v\.|intravenous(?:ly)?)\b/i, 'IV'],
  [/\b(?:im|i\.m\.|intramuscular(?:ly)?)\b/i, 'IM'],
  [/\b(?:subq|sc|s\.c\.|sq|subcutaneous(?:ly)?|sub-q)\b/i, 'SC'],
  [/\b(?:sl|sublingual(?:ly)?|under the tongue)\b/i, 'SL'],
  [/\b(?:topical(?:ly)?|applied to skin)\b/i, 'topical'],
  [/\b(?:inhaled|inhalation|via inhaler|nebulized|neb)\b/i, 'inhaled'],
  [/\b(?:pr|per rectum|rectal(?:ly)?)\b/i, 'PR'],
  [/\b(?:intranasal(?:ly)?|nasal spray|nasally)\b/i, 'intranasal'],
  [/\b(?:transdermal(?:ly)?|patch)\b/i, 'transdermal'],
  [/\b(?:ophthalmic|eye drops?)\b/i, 'ophthalmic'],
];

/** Frequency phrases, longest first; matched case-insensitively on word boundaries. */
export const FREQUENCY_RE = /\b(?:once (?:a|per) day|once daily|twice (?:a|per) day|twice daily|three times (?:a|per) day|three times daily|four times (?:a|per) day|four times daily|every (?:other day|morning|evening|night|day|week|\d+(?:\s*(?:-|to)\s*\d+)?\s*(?:hours?|hrs?|h|days?|weeks?|months?))|(?:once|twice) (?:a|per) week|(?:once )?weekly|monthly|daily|nightly|at bedtime|at night|in the morning|bid|b\.i\.d\.?|tid|t\.i\.d\.?|qid|q\.i\.d\.?|qd|q\.d\.?|qhs|q\.h\.s\.?|qam|qpm|qod|q\d+(?:-\d+)?h(?:rs?)?|q\s?\d+\s?(?:hours?|hrs?)|prn|p\.r\.n\.?|as needed(?: for [a-z ]+?(?=[,.;)]|$))?)(?:\s+(?:prn|as needed))?/i;

export const DOSE_RE = /\b(\d+(?:[.,]\d+)?(?:\s*(?:-|to|\/)\s*\d+(?:\.\d+)?)?)\s*(mg|mcg|µg|ug|g|grams?|mL|ml|cc|units?|u|iu|meq|mEq|puffs?|tablets?|tabs?|capsules?|caps?|drops?|sprays?|patch(?:es)?|%|mg\/kg|mg\/ml)(?![a-z])/i;

/** Sex words, with the canonical sex each implies. */
export const SEX_TERMS: [RegExp, 'male' | 'female'][] = [
  [/\b(?:male|man|gentleman|boy|M|he|his|him|mr\.?)\b/, 'male'],
  [/\b(?:female|woman|lady|girl|F|she|her|hers|mrs\.?|ms\.?|miss)\b/, 'female'],
];

/** Synonym groups used to map text onto a caller's enum values (all lower-case). */
export const ENUM_SYNONYMS: string[][] = [
  ['male', 'm', 'man', 'gentleman', 'boy', 'masculine', 'he', 'mr'],
  ['female', 'f', 'woman', 'lady', 'girl', 'feminine', 'she', 'mrs', 'ms'],
  ['yes', 'true', 'y', 'positive', 'present', 'confirmed'],
  ['no', 'false', 'n', 'negative', 'absent', 'denied', 'none'],
  ['mild', 'slight', 'minor', 'low', 'grade 1'],
  ['moderate', 'medium', 'mod', 'grade 2'],
  ['severe', 'serious', 'high', 'intense', 'grade 3', 'significant'],
  ['current', 'current smoker', 'active', 'currently', 'smokes', 'daily smoker'],
  ['former', 'former smoker', 'ex-smoker', 'quit', 'past', 'previous', 'prior', 'history of', 'used to'],
  ['never', 'never smoker', 'non-smoker', 'nonsmoker', 'denies smoking', 'does not smoke', 'lifetime non-smoker'],
  ['acute', 'sudden', 'new'],
  ['chronic', 'long-standing', 'longstanding', 'persistent'],
  ['oral', 'po', 'by mouth', 'orally'],
  ['intravenous', 'iv'],
  ['intramuscular', 'im'],
  ['subcutaneous', 'sc', 'subq', 'sq'],
  ['inhaled', 'inhalation', 'inhaler', 'nebulized'],
  ['topical', 'topically'],
  ['daily', 'once daily', 'qd', 'once a day', 'every day'],
  ['twice daily', 'bid', 'twice a day', 'b.i.d.'],
  ['three times daily', 'tid', 'three times a day', 't.i.d.'],
  ['four times daily', 'qid', 'four times a day'],
  ['as needed', 'prn', 'as required'],
  ['at bedtime', 'qhs', 'nightly', 'at night'],
  ['improving', 'better', 'improved', 'resolving'],
  ['worsening', 'worse', 'deteriorating', 'progressing'],
  ['stable', 'unchanged', 'same'],
  ['left', 'l', 'left-sided'],
  ['right', 'r', 'right-sided'],
  ['bilateral', 'both', 'both sides'],
  ['active', 'ongoing'],
  ['resolved', 'inactive', 'past', 'healed'],
  ['outpatient', 'clinic', 'office'],
  ['inpatient', 'hospital', 'admitted', 'ward'],
  ['emergency', 'er', 'ed', 'emergency department', 'emergency room'],
  ['married', 'wife', 'husband', 'spouse'],
  ['single', 'unmarried'],
  ['divorced'],
  ['widowed', 'widow', 'widower'],
];
