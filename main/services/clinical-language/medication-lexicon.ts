/**
 * The medication lexicon: generic names with their brand names and common abbreviations
 * (generic first, `|` between names, `;` or a line break between drugs), and the shape of a
 * drug word for names the list does not hold. Hand-written from general clinical knowledge;
 * lower case. Read by extraction, both note writers and medication-list correction.
 */
import type { PhraseEntry } from './phrase-match.js';

const DRUG_TABLE = `
lisinopril; metformin; atorvastatin; amlodipine; metoprolol; metoprolol tartrate; metoprolol succinate; losartan; hydrochlorothiazide|hctz; omeprazole; levothyroxine|synthroid
simvastatin; albuterol; gabapentin; sertraline|zoloft; furosemide|lasix; aspirin|asa; warfarin|coumadin; apixaban|eliquis; rivaroxaban|xarelto; clopidogrel|plavix
insulin glargine|lantus; insulin lispro|humalog; insulin aspart|novolog; insulin; prednisone; amoxicillin; amoxicillin-clavulanate|augmentin; azithromycin|z-pack|zithromax
ciprofloxacin|cipro; doxycycline; cephalexin|keflex; ibuprofen|advil|motrin; acetaminophen|tylenol|paracetamol; tramadol; oxycodone; hydrocodone; morphine; pantoprazole|protonix
montelukast|singulair; fluticasone|flonase; escitalopram|lexapro; fluoxetine|prozac; citalopram|celexa; bupropion|wellbutrin; trazodone; alprazolam|xanax; lorazepam|ativan
clonazepam|klonopin; zolpidem|ambien; carvedilol; spironolactone; tamsulosin|flomax; finasteride; allopurinol; colchicine; meloxicam; naproxen|aleve; cyclobenzaprine|flexeril
methylprednisolone|medrol; ondansetron|zofran; famotidine|pepcid; sitagliptin|januvia; glipizide; glyburide; glimepiride; empagliflozin|jardiance; dapagliflozin|farxiga
semaglutide|ozempic|wegovy; liraglutide|victoza; dulaglutide|trulicity; rosuvastatin|crestor; pravastatin; valsartan; olmesartan; irbesartan; diltiazem; verapamil; digoxin
hydralazine; nitroglycerin; isosorbide mononitrate; enoxaparin|lovenox; heparin; penicillin; nitrofurantoin|macrobid; trimethoprim-sulfamethoxazole|bactrim|tmp-smx
vancomycin; ceftriaxone; levofloxacin; clindamycin; metronidazole|flagyl; fluconazole; valacyclovir|valtrex; acyclovir; oseltamivir|tamiflu; prednisolone; budesonide
tiotropium|spiriva; lamotrigine; levetiracetam|keppra; topiramate; sumatriptan; donepezil; quetiapine|seroquel; aripiprazole|abilify; risperidone; olanzapine; lithium
venlafaxine; duloxetine|cymbalta; mirtazapine; buspirone; hydroxyzine; cetirizine|zyrtec; loratadine|claritin; diphenhydramine|benadryl; methotrexate; hydroxychloroquine
adalimumab|humira; vitamin d|vitamin d3|cholecalciferol; folic acid; ferrous sulfate|iron; potassium chloride; magnesium oxide; calcium carbonate; multivitamin; benzonatate
guaifenesin; dextromethorphan; pseudoephedrine; loperamide; docusate; senna; polyethylene glycol|miralax; sucralfate; esomeprazole|nexium; lansoprazole; ranitidine
propranolol; atenolol; bisoprolol; labetalol; nifedipine; clonidine; chlorthalidone; torsemide; bumetanide; amiodarone; dabigatran; ticagrelor; prasugrel; ezetimibe
fenofibrate; gemfibrozil; niacin; estradiol; medroxyprogesterone; norethindrone; testosterone; alendronate; sildenafil; tadalafil; oxybutynin; tolterodine; mirabegron
methocarbamol; baclofen; tizanidine; celecoxib; diclofenac; ketorolac; hydromorphone; fentanyl; buprenorphine; naloxone; methadone; nicotine patch; varenicline
cefdinir; cefuroxime; penicillin vk; dicloxacillin; linezolid; mupirocin; ketoconazole; terbinafine; nystatin; permethrin; ivermectin; albendazole
atorvastatin|lipitor; amlodipine|norvasc; albuterol|ventolin|proair|proventil; budesonide-formoterol|symbicort; fluticasone-salmeterol|advair
fluticasone|flovent; fexofenadine|allegra; omeprazole|prilosec; famotidine|zantac; venlafaxine|effexor; gabapentin|neurontin; pregabalin|lyrica
oxycodone-acetaminophen|percocet; hydrocodone-acetaminophen|norco|vicodin; levofloxacin|levaquin; methocarbamol|robaxin; meloxicam|mobic
celecoxib|celebrex; sumatriptan|imitrex; topiramate|topamax; divalproex|depakote|valproate; lamotrigine|lamictal; amphetamine-dextroamphetamine|adderall
methylphenidate|ritalin; cyanocobalamin|vitamin b12|b12; fish oil|omega-3; melatonin; promethazine|phenergan; docusate|colace; psyllium|metamucil
loperamide|imodium; etanercept|enbrel; hydroxychloroquine|plaquenil; spironolactone|aldactone; sacubitril-valsartan|entresto; losartan|cozaar
valsartan|diovan; metoprolol succinate|toprol|toprol xl; carvedilol|coreg; simvastatin|zocor; fenofibrate|tricor; ezetimibe|zetia; metformin|glucophage
pioglitazone|actos; cortisone; steroid|steroids; epinephrine|epipen; naloxone|narcan; buprenorphine-naloxone|suboxone; naltrexone; dexamethasone
triamcinolone|kenalog; diclofenac|voltaren; lidocaine; mupirocin|bactroban; fluconazole|diflucan; terbinafine|lamisil; progesterone; sildenafil|viagra
tadalafil|cialis; tolterodine|detrol; insulin degludec|tresiba; insulin detemir|levemir; tirzepatide|mounjaro|zepbound; guaifenesin|mucinex|robitussin
prenatal vitamins|prenatal vitamin
fluticasone-salmeterol|wixela|airduo; fluticasone-vilanterol|breo; fluticasone-umeclidinium-vilanterol|trelegy; mometasone-formoterol|dulera
ciclesonide|alvesco; beclomethasone|qvar; ipratropium|atrovent; ipratropium-albuterol|combivent|duoneb; levalbuterol|xopenex; umeclidinium|incruse
levocetirizine|xyzal; azelastine; mometasone|nasonex; tofacitinib|xeljanz; upadacitinib|rinvoq; infliximab|remicade; sulfasalazine; leflunomide|arava
paroxetine|paxil; desvenlafaxine|pristiq; vortioxetine|trintellix; lurasidone|latuda; benazepril; enalapril; ramipril; quinapril; doxazosin; terazosin
prazosin; amlodipine-benazepril|lotrel; losartan-hydrochlorothiazide|hyzaar; lisinopril-hydrochlorothiazide|zestoretic; methimazole; liothyronine|cytomel
linagliptin|tradjenta; canagliflozin|invokana; dicyclomine|bentyl; metoclopramide|reglan; mesalamine; dutasteride|avodart; solifenacin|vesicare
hydrocortisone; clobetasol|temovate; tretinoin; rizatriptan|maxalt; oxcarbazepine|trileptal; carbamazepine|tegretol; phenytoin|dilantin
memantine|namenda; carbidopa-levodopa|sinemet; latanoprost|xalatan; lisdexamfetamine|vyvanse; dupilumab|dupixent; febuxostat|uloric
alendronate|fosamax; ibandronate|boniva; risedronate|actonel; denosumab|prolia; raloxifene|evista; glatiramer|copaxone; interferon beta|avonex|rebif; dimethyl fumarate|tecfidera; ocrelizumab|ocrevus; teriflunomide|aubagio
collagenase|santyl; silver sulfadiazine|silvadene; bacitracin; neomycin-polymyxin-bacitracin|neosporin; tacrolimus|prograf; mycophenolate|cellcept; cyclosporine; benzoyl peroxide; doxepin; nortriptyline; amitriptyline|elavil; ropinirole|requip
`;

/** One drug: its generic name and every name it is written or spoken as (generic included). */
export interface DrugEntry {
  generic: string;
  names: readonly string[];
}

function parseTable(table: string): DrugEntry[] {
  const byGeneric = new Map<string, string[]>();
  for (const group of table.split(/[;\n]/)) {
    const names = group.split('|').map((s) => s.trim()).filter(Boolean);
    const generic = names[0];
    if (generic === undefined) continue;
    // A drug listed twice (generic first each time) keeps every name once.
    const known = byGeneric.get(generic) ?? [];
    for (const n of names) if (!known.includes(n)) known.push(n);
    byGeneric.set(generic, known);
  }
  return [...byGeneric].map(([generic, names]) => ({ generic, names }));
}

/** Every drug the lexicon knows. */
export const DRUGS: readonly DrugEntry[] = parseTable(DRUG_TABLE);

/** The lexicon as phrase-matcher entries: the value of a match is the generic name. */
export const DRUG_PHRASES: readonly PhraseEntry<string>[] = DRUGS.map((d) => ({ value: d.generic, phrases: d.names }));

// Common drug name endings; a word with one of these is almost always a drug.
const DRUG_SUFFIX =
  /^[a-z]{2,}(pril|sartan|olol|alol|dipine|statin|formin|gliptin|gliflozin|glutide|prazole|tidine|azepam|azolam|oxetine|aline|triptan|cillin|mycin|cycline|floxacin|oxacin|azole|conazole|vir|navir|mab|nib|tinib|parin|xaban|gatran|semide|thiazide|afil|sone|solone|olone|asone|profen|coxib|codone|morphone|phine|adol|pam|lam|barbital|triptyline|pramine|zodone|pine|done|ium|caine|tropin|terol|tropium|lukast|thyroxine|ine)$/i;
// Words with drug-like endings that are not drugs.
const NOT_DRUGS = new Set(['medicine', 'routine', 'urine', 'caffeine', 'nicotine', 'uterine', 'examine', 'determine', 'imagine', 'machine', 'engine', 'magazine', 'fine', 'line', 'mine', 'nine', 'wine', 'shine', 'spine', 'vaccine', 'saline', 'baseline', 'airline', 'deadline', 'online', 'define', 'decline', 'combine', 'genuine', 'feminine', 'masculine', 'discipline', 'intestine', 'done', 'none', 'gone', 'someone', 'anyone', 'everyone', 'phone', 'bone', 'alone', 'stone', 'tone', 'zone', 'cone', 'postpone', 'hormone', 'ozone', 'sone', 'person', 'reason', 'season', 'pine', 'opine', 'alpine', 'ium', 'stadium', 'podium', 'medium', 'premium', 'sodium', 'potassium', 'calcium', 'magnesium', 'condone', 'lam', 'pam', 'exam', 'spam', 'scam', 'program', 'diagram', 'gram', 'ultram', 'navir', 'caine', 'cocaine', 'hurricane', 'decline', 'outline', 'midline', 'guideline', 'hairline', 'headline', 'lifeline', 'sideline', 'timeline', 'borderline', 'trampoline', 'gasoline', 'pristine', 'doctrine', 'cuisine', 'marine', 'canine', 'bovine', 'divine', 'endocrine', 'quarantine', 'valentine', 'figurine', 'sunshine', 'turbine', 'combine', 'porcupine', 'adrenaline', 'iodine', 'chlorine', 'fluorine', 'morphine']);
// First words of two-word names that name a drug on their own ("on calcium and vitamin d").
const HEAD_WORDS = ['vitamin', 'calcium', 'magnesium', 'potassium', 'ferrous', 'folic'];
const DRUG_WORDS = new Set([...DRUGS.flatMap((d) => d.names).filter((n) => /^[a-z][a-z0-9]*$/.test(n)), ...HEAD_WORDS]);

/** True when a word looks like a drug name (a listed generic or brand, or a pharmacological ending). */
export function isDrugWord(word: string): boolean {
  const w = word.toLowerCase();
  if (DRUG_WORDS.has(w)) return true;
  if (w.length < 6 || NOT_DRUGS.has(w)) return false;
  return DRUG_SUFFIX.test(w) && !/(ing|tion|ness|ment)$/.test(w);
}
