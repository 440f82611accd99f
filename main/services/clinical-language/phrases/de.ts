/** German clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const DE: ClinicalPhrases = {
  reports: 'Berichtet über', denies: 'Verneint', and: 'und', comma: ', ', space: ' ', stop: '.',
  agreement: 'Der Patient versteht den empfohlenen Behandlungsplan und stimmt ihm zu.',
  labels: {
    reasoning: 'Klinische Begründung', testing: 'Weitere Diagnostik', treatment: 'Therapie', referral: 'Überweisungen',
    education: 'Patientenaufklärung und Beratung', followUp: 'Wiedervorstellung',
  },
  untranslated: 'nicht übersetzt',
  systems: {
    Constitutional: 'Allgemein', HEENT: 'HNO/Augen', Cardiovascular: 'Herz-Kreislauf', Respiratory: 'Atmung', Gastrointestinal: 'Gastrointestinal',
    Genitourinary: 'Urogenital', Musculoskeletal: 'Bewegungsapparat', Neurological: 'Neurologisch', Psychiatric: 'Psychisch', Skin: 'Haut',
    Endocrine: 'Endokrin', Hematologic: 'Hämatologisch', Neck: 'Hals', Vitals: 'Vitalzeichen',
  },
  symptoms: pairs(`fever: Fieber; chills: Schüttelfrost; night sweats: Nachtschweiß; fatigue: Müdigkeit; weight loss: Gewichtsverlust; weight gain: Gewichtszunahme;
    loss of appetite: Appetitlosigkeit; headache: Kopfschmerzen; dizziness: Schwindel; lightheadedness: Benommenheit; numbness: Taubheitsgefühl; tingling: Kribbeln;
    weakness: Schwäche; syncope: Synkope; vision changes: Sehstörungen; sore throat: Halsschmerzen; nasal congestion: verstopfte Nase; hearing loss: Hörminderung;
    chest pain: Brustschmerzen; palpitations: Herzklopfen; leg swelling: Beinödeme; shortness of breath: Atemnot; cough: Husten; wheezing: Giemen;
    nausea: Übelkeit; vomiting: Erbrechen; diarrhea: Durchfall; constipation: Verstopfung; abdominal pain: Bauchschmerzen; heartburn: Sodbrennen;
    blood in the stool: Blut im Stuhl; bloating: Blähungen; dysuria: Dysurie; hematuria: Hämaturie; urinary symptoms: Miktionsbeschwerden;
    joint pain: Gelenkschmerzen; back pain: Rückenschmerzen; myalgia: Muskelschmerzen; rash: Hautausschlag; bruising: Hämatome; anxiety: Angst;
    depression: Depression; insomnia: Schlaflosigkeit; polydipsia: Polydipsie; easy bleeding: erhöhte Blutungsneigung; edema: Ödeme; knee pain: Knieschmerzen;
    shoulder pain: Schulterschmerzen; neck pain: Nackenschmerzen; hip pain: Hüftschmerzen; urinary incontinence: Harninkontinenz`),
  conditions: pairs(`hypertension: arterielle Hypertonie; type 2 diabetes mellitus: Diabetes mellitus Typ 2; type 1 diabetes mellitus: Diabetes mellitus Typ 1;
    diabetes: Diabetes mellitus; hyperlipidemia: Hyperlipidämie; congestive heart failure: Herzinsuffizienz; coronary artery disease: koronare Herzkrankheit;
    atrial fibrillation: Vorhofflimmern; copd: COPD; asthma: Asthma bronchiale; chronic kidney disease: chronische Niereninsuffizienz; gerd: gastroösophageale Refluxkrankheit;
    hypothyroidism: Hypothyreose; obesity: Adipositas; osteoarthritis: Arthrose; depression: Depression; anxiety: Angststörung; migraine: Migräne;
    pneumonia: Pneumonie; urinary tract infection: Harnwegsinfekt; acute bronchitis: akute Bronchitis; sinusitis: Sinusitis; pharyngitis: Pharyngitis;
    influenza: Influenza; covid-19: COVID-19; low back pain: Kreuzschmerzen; ankle sprain: Sprunggelenksdistorsion; lumbar strain: lumbale Muskelzerrung;
    gout: Gicht; cellulitis: Phlegmone; anemia: Anämie; obstructive sleep apnea: obstruktive Schlafapnoe; allergic rhinitis: allergische Rhinitis;
    kidney stones: Nephrolithiasis; annual exam: Jahresuntersuchung; acute lumbar strain: akute lumbale Muskelzerrung; fracture: Fraktur; concussion: Gehirnerschütterung`),
  frequencies: pairs(`once daily: einmal täglich; twice daily: zweimal täglich; three times daily: dreimal täglich; four times daily: viermal täglich;
    every {n} hours: alle {n} Stunden; at bedtime: zur Nacht; every other day: jeden zweiten Tag; weekly: einmal wöchentlich; as needed: bei Bedarf`),
  vitals: {
    bloodPressure: 'Blutdruck', heartRate: 'Herzfrequenz', temperature: 'Temperatur', oxygenSaturation: 'Sauerstoffsättigung', respiratoryRate: 'Atemfrequenz',
    weight: 'Gewicht',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: '{medication} beginnen.', continue: '{medication} fortführen.', increase: '{drug} erhöhen auf {dose} {frequency}.',
    decrease: '{drug} reduzieren auf {dose} {frequency}.', stop: '{drug} absetzen.', prescribe: '{medication} verordnen.', refill: 'Folgerezept für {medication}.',
  },
  order: '{test} veranlassen.',
  refer: 'Überweisung: {to}.',
  followUp: 'Wiedervorstellung in {time}.',
  followUpAsNeeded: 'Wiedervorstellung bei Bedarf.',
  time: { day: ['{n} Tag', '{n} Tagen'], week: ['{n} Woche', '{n} Wochen'], month: ['{n} Monat', '{n} Monaten'], year: ['{n} Jahr', '{n} Jahren'] },
  amounts: pairs(`a week: einer Woche; a month: einem Monat; a year: einem Jahr; a couple weeks: etwa zwei Wochen; a couple of weeks: etwa zwei Wochen;
    a couple months: etwa zwei Monaten; a couple of months: etwa zwei Monaten; a few days: einigen Tagen; a few weeks: einigen Wochen; a few months: einigen Monaten`),
  tests: pairs(`echocardiogram: Echokardiographie; chest x-ray: Röntgen-Thorax; x-ray: Röntgenaufnahme; mri: MRT; ct scan: CT; ultrasound: Sonographie; ekg: EKG;
    blood work: Blutuntersuchung; labs: Laboruntersuchung; lipid panel: Lipidprofil; hemoglobin a1c: HbA1c; cbc: Blutbild; metabolic panel: klinische Chemie;
    urinalysis: Urinuntersuchung; urine culture: Urinkultur; culture: Kultur; biopsy: Biopsie; mammogram: Mammographie; colonoscopy: Koloskopie;
    stress test: Belastungs-EKG; sleep study: Schlaflaboruntersuchung; pulmonary function test: Lungenfunktionsprüfung; thyroid panel: Schilddrüsenwerte;
    holter monitor: Langzeit-EKG; rapid strep test: Streptokokken-Schnelltest; covid test: COVID-Test; bone density scan: Knochendichtemessung;
    nerve conduction study: Nervenleitgeschwindigkeitsmessung`),
  specialties: pairs(`physical therapy: Physiotherapie; occupational therapy: Ergotherapie; cardiology: Kardiologie; orthopedics: Orthopädie; neurology: Neurologie;
    dermatology: Dermatologie; endocrinology: Endokrinologie; gastroenterology: Gastroenterologie; pulmonology: Pneumologie; rheumatology: Rheumatologie;
    urology: Urologie; nephrology: Nephrologie; oncology: Onkologie; psychiatry: Psychiatrie; counseling: Psychotherapie; nutrition: Ernährungsberatung;
    podiatry: Podologie; ent: HNO; ophthalmology: Augenheilkunde; surgery: Chirurgie; pain management: Schmerztherapie; sleep medicine: Schlafmedizin; neurosurgery: Neurochirurgie; hematology: Hämatologie; gynecology: Gynäkologie; infectious disease: Infektiologie; allergy: Allergologie; speech therapy: Logopädie; audiology: Audiologie; vascular surgery: Gefäßchirurgie`),
  exam: pairs(`regular rate and rhythm: Herzaktion rhythmisch, normofrequent; no murmurs: keine Herzgeräusche; murmur: Herzgeräusch;
    systolic ejection murmur: systolisches Austreibungsgeräusch; clear to auscultation: auskultatorisch unauffällig; lungs are clear: Lunge auskultatorisch frei;
    crackles: Rasselgeräusche; rales: Rasselgeräusche; rhonchi: Brummen; wheezing: Giemen; wheezes: Giemen; edema: Ödem; pitting edema: eindrückbares Ödem;
    no edema: keine Ödeme; tenderness: Druckschmerz; no tenderness: kein Druckschmerz; pain to palpation: Druckschmerz; swelling: Schwellung; erythema: Erythem;
    bruising: Hämatom; effusion: Erguss; decreased range of motion: eingeschränkte Beweglichkeit; full range of motion: freie Beweglichkeit;
    jugular venous distention: Halsvenenstauung; lymphadenopathy: Lymphadenopathie; positive straight leg raise: Lasègue positiv; soft: weich; nontender: nicht druckschmerzhaft;
    normal: unauffällig; bilaterally: beidseits; bilateral: beidseitig; right: rechts; left: links; at the bases: basal; lower extremities: untere Extremitäten;
    no: kein; mild: leicht; moderate: mäßig; severe: schwer;
    tenderness to palpation: Druckschmerz; no tenderness to palpation: kein Druckschmerz; pain with flexion: Schmerz bei Flexion;
    pain with extension: Schmerz bei Extension; pain with rotation: Schmerz bei Rotation; pain with movement: Bewegungsschmerz;
    pain with elevation: Schmerz bei Elevation; pain with pronation: Schmerz bei Pronation; pain with supination: Schmerz bei Supination;
    pain with compression: Kompressionsschmerz; pain with resisted movement: Schmerz bei Bewegung gegen Widerstand;
    no pain with flexion: kein Schmerz bei Flexion; no pain with extension: kein Schmerz bei Extension;
    no pain with rotation: kein Schmerz bei Rotation; no pain with movement: kein Bewegungsschmerz; medially: medial; laterally: lateral;
    anteriorly: anterior; posteriorly: posterior`),
};
