/** French clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const FR: ClinicalPhrases = {
  reports: 'Signale', denies: 'Nie', and: 'et', comma: ', ', space: ' ', stop: '.',
  agreement: 'Le patient comprend et accepte le plan de traitement recommandé.',
  labels: {
    reasoning: 'Raisonnement clinique', testing: 'Examens complémentaires', treatment: 'Traitement', referral: 'Orientation vers un spécialiste',
    education: 'Éducation et conseils au patient', followUp: 'Suivi',
  },
  untranslated: 'non traduit',
  systems: {
    Constitutional: 'Général', HEENT: 'ORL', Cardiovascular: 'Cardiovasculaire', Respiratory: 'Respiratoire', Gastrointestinal: 'Digestif',
    Genitourinary: 'Génito-urinaire', Musculoskeletal: 'Locomoteur', Neurological: 'Neurologique', Psychiatric: 'Psychiatrique', Skin: 'Peau',
    Endocrine: 'Endocrinien', Hematologic: 'Hématologique', Neck: 'Cou', Vitals: 'Signes vitaux',
  },
  symptoms: pairs(`fever: fièvre; chills: frissons; night sweats: sueurs nocturnes; fatigue: fatigue; weight loss: perte de poids; weight gain: prise de poids;
    loss of appetite: perte d'appétit; headache: céphalées; dizziness: vertiges; lightheadedness: sensation de tête légère; numbness: engourdissement;
    tingling: picotements; weakness: faiblesse; syncope: syncope; vision changes: troubles visuels; sore throat: mal de gorge; nasal congestion: congestion nasale;
    hearing loss: baisse de l'audition; chest pain: douleur thoracique; palpitations: palpitations; leg swelling: œdème des jambes; shortness of breath: dyspnée;
    cough: toux; wheezing: sifflements; nausea: nausées; vomiting: vomissements; diarrhea: diarrhée; constipation: constipation; abdominal pain: douleur abdominale;
    heartburn: brûlures d'estomac; blood in the stool: sang dans les selles; bloating: ballonnements; dysuria: dysurie; hematuria: hématurie;
    urinary symptoms: symptômes urinaires; joint pain: douleurs articulaires; back pain: douleur dorsale; myalgia: myalgies; rash: éruption cutanée;
    bruising: ecchymoses; anxiety: anxiété; depression: dépression; insomnia: insomnie; polydipsia: polydipsie; easy bleeding: saignements faciles;
    edema: œdème; knee pain: douleur au genou; shoulder pain: douleur à l'épaule; neck pain: cervicalgie; hip pain: douleur à la hanche; urinary incontinence: incontinence urinaire`),
  conditions: pairs(`hypertension: hypertension artérielle; type 2 diabetes mellitus: diabète de type 2; type 1 diabetes mellitus: diabète de type 1; diabetes: diabète;
    hyperlipidemia: hyperlipidémie; congestive heart failure: insuffisance cardiaque congestive; coronary artery disease: maladie coronarienne;
    atrial fibrillation: fibrillation auriculaire; copd: BPCO; asthma: asthme; chronic kidney disease: maladie rénale chronique; gerd: reflux gastro-œsophagien;
    hypothyroidism: hypothyroïdie; obesity: obésité; osteoarthritis: arthrose; depression: dépression; anxiety: anxiété; migraine: migraine; pneumonia: pneumonie;
    urinary tract infection: infection urinaire; acute bronchitis: bronchite aiguë; sinusitis: sinusite; pharyngitis: pharyngite; influenza: grippe; covid-19: COVID-19;
    low back pain: lombalgie; ankle sprain: entorse de la cheville; lumbar strain: lombalgie d'effort; gout: goutte; cellulitis: cellulite infectieuse; anemia: anémie;
    obstructive sleep apnea: apnée obstructive du sommeil; allergic rhinitis: rhinite allergique; kidney stones: lithiase rénale; annual exam: bilan annuel;
    acute lumbar strain: lombalgie aiguë d'effort; fracture: fracture; concussion: commotion cérébrale`),
  frequencies: pairs(`once daily: une fois par jour; twice daily: deux fois par jour; three times daily: trois fois par jour; four times daily: quatre fois par jour;
    every {n} hours: toutes les {n} heures; at bedtime: au coucher; every other day: un jour sur deux; weekly: une fois par semaine; as needed: si besoin`),
  vitals: {
    bloodPressure: 'Pression artérielle', heartRate: 'Fréquence cardiaque', temperature: 'Température', oxygenSaturation: 'Saturation en oxygène',
    respiratoryRate: 'Fréquence respiratoire', weight: 'Poids',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Débuter {medication}.', continue: 'Poursuivre {medication}.', increase: 'Augmenter {drug} à {dose} {frequency}.',
    decrease: 'Diminuer {drug} à {dose} {frequency}.', stop: 'Arrêter {drug}.', prescribe: 'Prescrire {medication}.', refill: 'Renouveler {medication}.',
  },
  order: 'Prescrire : {test}.',
  refer: 'Adresser en {to}.',
  followUp: 'Revoir dans {time}.',
  followUpAsNeeded: 'Revoir si besoin.',
  time: { day: ['{n} jour', '{n} jours'], week: ['{n} semaine', '{n} semaines'], month: ['{n} mois', '{n} mois'], year: ['{n} an', '{n} ans'] },
  amounts: pairs(`a week: une semaine; a month: un mois; a year: un an; a couple weeks: deux semaines environ; a couple of weeks: deux semaines environ;
    a couple months: deux mois environ; a couple of months: deux mois environ; a few days: quelques jours; a few weeks: quelques semaines; a few months: quelques mois`),
  tests: pairs(`echocardiogram: échocardiographie; chest x-ray: radiographie thoracique; x-ray: radiographie; mri: IRM; ct scan: scanner; ultrasound: échographie;
    ekg: électrocardiogramme; blood work: bilan sanguin; labs: bilan biologique; lipid panel: bilan lipidique; hemoglobin a1c: hémoglobine glyquée (HbA1c);
    cbc: numération formule sanguine; metabolic panel: bilan métabolique; urinalysis: analyse d'urine; urine culture: ECBU; culture: culture; biopsy: biopsie;
    mammogram: mammographie; colonoscopy: coloscopie; stress test: épreuve d'effort; sleep study: polysomnographie; pulmonary function test: explorations fonctionnelles respiratoires;
    thyroid panel: bilan thyroïdien; holter monitor: Holter; rapid strep test: test rapide d'angine streptococcique; covid test: test COVID;
    bone density scan: ostéodensitométrie; nerve conduction study: électroneuromyographie`),
  specialties: pairs(`physical therapy: kinésithérapie; occupational therapy: ergothérapie; cardiology: cardiologie; orthopedics: orthopédie; neurology: neurologie;
    dermatology: dermatologie; endocrinology: endocrinologie; gastroenterology: gastro-entérologie; pulmonology: pneumologie; rheumatology: rhumatologie;
    urology: urologie; nephrology: néphrologie; oncology: oncologie; psychiatry: psychiatrie; counseling: psychothérapie; nutrition: diététique;
    podiatry: podologie; ent: ORL; ophthalmology: ophtalmologie; surgery: chirurgie; pain management: consultation douleur; sleep medicine: médecine du sommeil; neurosurgery: neurochirurgie; hematology: hématologie; gynecology: gynécologie; infectious disease: infectiologie; allergy: allergologie; speech therapy: orthophonie; audiology: audiologie; vascular surgery: chirurgie vasculaire`),
  exam: pairs(`regular rate and rhythm: rythme régulier, fréquence normale; no murmurs: pas de souffle; murmur: souffle; systolic ejection murmur: souffle systolique éjectionnel;
    clear to auscultation: auscultation claire; lungs are clear: auscultation pulmonaire claire; crackles: crépitants; rales: râles; rhonchi: ronchi;
    wheezing: sibilants; wheezes: sibilants; edema: œdème; pitting edema: œdème prenant le godet; no edema: pas d'œdème; tenderness: sensibilité à la palpation;
    no tenderness: pas de sensibilité; pain to palpation: douleur à la palpation; swelling: tuméfaction; erythema: érythème; bruising: ecchymose; effusion: épanchement;
    decreased range of motion: amplitude articulaire diminuée; full range of motion: amplitude articulaire complète; jugular venous distention: turgescence jugulaire;
    lymphadenopathy: adénopathies; positive straight leg raise: Lasègue positif; soft: souple; nontender: indolore; normal: normal; bilaterally: bilatéral;
    bilateral: bilatéral; right: droit; left: gauche; at the bases: aux bases; lower extremities: membres inférieurs; no: pas de; mild: léger; moderate: modéré;
    severe: sévère;
    tenderness to palpation: douleur à la palpation; no tenderness to palpation: pas de douleur à la palpation; pain with flexion: douleur en flexion;
    pain with extension: douleur en extension; pain with rotation: douleur en rotation; pain with movement: douleur à la mobilisation;
    pain with elevation: douleur à l'élévation; pain with pronation: douleur en pronation; pain with supination: douleur en supination;
    pain with compression: douleur à la compression; pain with resisted movement: douleur contre résistance;
    no pain with flexion: pas de douleur en flexion; no pain with extension: pas de douleur en extension;
    no pain with rotation: pas de douleur en rotation; no pain with movement: pas de douleur à la mobilisation; medially: en interne;
    laterally: en externe; anteriorly: en antérieur; posteriorly: en postérieur`),
};
