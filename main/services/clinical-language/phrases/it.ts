/** Italian clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const IT: ClinicalPhrases = {
  reports: 'Riferisce', denies: 'Nega', and: 'e', comma: ', ', space: ' ', stop: '.',
  agreement: 'Il paziente comprende e accetta il piano di trattamento raccomandato.',
  labels: {
    reasoning: 'Ragionamento clinico', testing: 'Esami aggiuntivi', treatment: 'Terapia', referral: 'Invii specialistici',
    education: 'Educazione e counseling del paziente', followUp: 'Follow-up',
  },
  untranslated: 'non tradotto',
  systems: {
    Constitutional: 'Generale', HEENT: 'Testa e collo', Cardiovascular: 'Cardiovascolare', Respiratory: 'Respiratorio', Gastrointestinal: 'Gastrointestinale',
    Genitourinary: 'Genitourinario', Musculoskeletal: 'Muscoloscheletrico', Neurological: 'Neurologico', Psychiatric: 'Psichiatrico', Skin: 'Cute',
    Endocrine: 'Endocrino', Hematologic: 'Ematologico', Neck: 'Collo', Vitals: 'Parametri vitali',
  },
  symptoms: pairs(`fever: febbre; chills: brividi; night sweats: sudorazioni notturne; fatigue: stanchezza; weight loss: perdita di peso; weight gain: aumento di peso;
    loss of appetite: inappetenza; headache: cefalea; dizziness: vertigini; lightheadedness: sensazione di testa leggera; numbness: intorpidimento; tingling: formicolio;
    weakness: debolezza; syncope: sincope; vision changes: disturbi visivi; sore throat: mal di gola; nasal congestion: congestione nasale; hearing loss: calo dell'udito;
    chest pain: dolore toracico; palpitations: palpitazioni; leg swelling: edema agli arti inferiori; shortness of breath: dispnea; cough: tosse;
    wheezing: respiro sibilante; nausea: nausea; vomiting: vomito; diarrhea: diarrea; constipation: stitichezza; abdominal pain: dolore addominale;
    heartburn: pirosi; blood in the stool: sangue nelle feci; bloating: gonfiore addominale; dysuria: disuria; hematuria: ematuria; urinary symptoms: disturbi urinari;
    joint pain: dolori articolari; back pain: mal di schiena; myalgia: mialgie; rash: eruzione cutanea; bruising: ecchimosi; anxiety: ansia; depression: depressione;
    insomnia: insonnia; polydipsia: polidipsia; easy bleeding: facilità al sanguinamento; edema: edema; knee pain: dolore al ginocchio; shoulder pain: dolore alla spalla;
    neck pain: cervicalgia; hip pain: dolore all'anca; urinary incontinence: incontinenza urinaria`),
  conditions: pairs(`hypertension: ipertensione arteriosa; type 2 diabetes mellitus: diabete mellito di tipo 2; type 1 diabetes mellitus: diabete mellito di tipo 1;
    diabetes: diabete mellito; hyperlipidemia: iperlipidemia; congestive heart failure: scompenso cardiaco congestizio; coronary artery disease: cardiopatia ischemica;
    atrial fibrillation: fibrillazione atriale; copd: BPCO; asthma: asma; chronic kidney disease: malattia renale cronica; gerd: malattia da reflusso gastroesofageo;
    hypothyroidism: ipotiroidismo; obesity: obesità; osteoarthritis: artrosi; depression: depressione; anxiety: ansia; migraine: emicrania; pneumonia: polmonite;
    urinary tract infection: infezione delle vie urinarie; acute bronchitis: bronchite acuta; sinusitis: sinusite; pharyngitis: faringite; influenza: influenza;
    covid-19: COVID-19; low back pain: lombalgia; ankle sprain: distorsione della caviglia; lumbar strain: stiramento lombare; gout: gotta; cellulitis: cellulite infettiva;
    anemia: anemia; obstructive sleep apnea: apnea ostruttiva del sonno; allergic rhinitis: rinite allergica; kidney stones: calcolosi renale; annual exam: controllo annuale;
    acute lumbar strain: stiramento lombare acuto; fracture: frattura; concussion: commozione cerebrale`),
  frequencies: pairs(`once daily: una volta al giorno; twice daily: due volte al giorno; three times daily: tre volte al giorno; four times daily: quattro volte al giorno;
    every {n} hours: ogni {n} ore; at bedtime: prima di coricarsi; every other day: a giorni alterni; weekly: una volta alla settimana; as needed: al bisogno`),
  vitals: {
    bloodPressure: 'Pressione arteriosa', heartRate: 'Frequenza cardiaca', temperature: 'Temperatura', oxygenSaturation: 'Saturazione di ossigeno',
    respiratoryRate: 'Frequenza respiratoria', weight: 'Peso',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Iniziare {medication}.', continue: 'Proseguire {medication}.', increase: 'Aumentare {drug} a {dose} {frequency}.',
    decrease: 'Ridurre {drug} a {dose} {frequency}.', stop: 'Sospendere {drug}.', prescribe: 'Prescrivere {medication}.', refill: 'Rinnovare la prescrizione di {medication}.',
  },
  order: 'Richiedere {test}.',
  refer: 'Inviare a {to}.',
  followUp: 'Controllo tra {time}.',
  followUpAsNeeded: 'Controllo al bisogno.',
  time: { day: ['{n} giorno', '{n} giorni'], week: ['{n} settimana', '{n} settimane'], month: ['{n} mese', '{n} mesi'], year: ['{n} anno', '{n} anni'] },
  amounts: pairs(`a week: una settimana; a month: un mese; a year: un anno; a couple weeks: un paio di settimane; a couple of weeks: un paio di settimane;
    a couple months: un paio di mesi; a couple of months: un paio di mesi; a few days: qualche giorno; a few weeks: qualche settimana; a few months: qualche mese`),
  tests: pairs(`echocardiogram: ecocardiogramma; chest x-ray: radiografia del torace; x-ray: radiografia; mri: risonanza magnetica; ct scan: TC; ultrasound: ecografia;
    ekg: elettrocardiogramma; blood work: esami del sangue; labs: esami di laboratorio; lipid panel: profilo lipidico; hemoglobin a1c: emoglobina glicata (HbA1c);
    cbc: emocromo; metabolic panel: pannello metabolico; urinalysis: esame delle urine; urine culture: urinocoltura; culture: coltura; biopsy: biopsia;
    mammogram: mammografia; colonoscopy: colonscopia; stress test: test da sforzo; sleep study: polisonnografia; pulmonary function test: prove di funzionalità respiratoria;
    thyroid panel: funzionalità tiroidea; holter monitor: Holter; rapid strep test: test rapido per lo streptococco; covid test: test COVID; bone density scan: densitometria ossea;
    nerve conduction study: elettroneurografia`),
  specialties: pairs(`physical therapy: fisioterapia; occupational therapy: terapia occupazionale; cardiology: cardiologia; orthopedics: ortopedia; neurology: neurologia;
    dermatology: dermatologia; endocrinology: endocrinologia; gastroenterology: gastroenterologia; pulmonology: pneumologia; rheumatology: reumatologia;
    urology: urologia; nephrology: nefrologia; oncology: oncologia; psychiatry: psichiatria; counseling: psicoterapia; nutrition: dietologia; podiatry: podologia;
    ent: otorinolaringoiatria; ophthalmology: oculistica; surgery: chirurgia; pain management: terapia del dolore; sleep medicine: medicina del sonno; neurosurgery: neurochirurgia; hematology: ematologia; gynecology: ginecologia; infectious disease: malattie infettive; allergy: allergologia; speech therapy: logopedia; audiology: audiologia; vascular surgery: chirurgia vascolare`),
  exam: pairs(`regular rate and rhythm: ritmo regolare, frequenza normale; no murmurs: non soffi; murmur: soffio; systolic ejection murmur: soffio sistolico eiettivo;
    clear to auscultation: murmure vescicolare normale; lungs are clear: campi polmonari liberi; crackles: crepitii; rales: rantoli; rhonchi: ronchi; wheezing: sibili;
    wheezes: sibili; edema: edema; pitting edema: edema improntabile; no edema: non edemi; tenderness: dolorabilità; no tenderness: non dolorabilità;
    pain to palpation: dolore alla palpazione; swelling: tumefazione; erythema: eritema; bruising: ecchimosi; effusion: versamento;
    decreased range of motion: ridotta articolarità; full range of motion: articolarità completa; jugular venous distention: turgore giugulare;
    lymphadenopathy: linfoadenopatia; positive straight leg raise: Lasègue positivo; soft: trattabile; nontender: non dolente; normal: nella norma;
    bilaterally: bilateralmente; bilateral: bilaterale; right: destro; left: sinistro; at the bases: alle basi; lower extremities: arti inferiori; no: non;
    mild: lieve; moderate: moderato; severe: grave;
    tenderness to palpation: dolorabilità alla palpazione; no tenderness to palpation: non dolorabilità alla palpazione;
    pain with flexion: dolore in flessione; pain with extension: dolore in estensione; pain with rotation: dolore in rotazione;
    pain with movement: dolore al movimento; pain with elevation: dolore all'elevazione; pain with pronation: dolore in pronazione;
    pain with supination: dolore in supinazione; pain with compression: dolore alla compressione;
    pain with resisted movement: dolore contro resistenza; no pain with flexion: non dolore in flessione;
    no pain with extension: non dolore in estensione; no pain with rotation: non dolore in rotazione; no pain with movement: non dolore al movimento;
    medially: medialmente; laterally: lateralmente; anteriorly: anteriormente; posteriorly: posteriormente`),
};
