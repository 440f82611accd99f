/** Spanish clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const ES: ClinicalPhrases = {
  reports: 'Refiere', denies: 'Niega', and: 'y', comma: ', ', space: ' ', stop: '.',
  agreement: 'El paciente comprende y acepta el plan de tratamiento recomendado.',
  labels: {
    reasoning: 'Razonamiento clínico', testing: 'Pruebas complementarias', treatment: 'Tratamiento', referral: 'Derivaciones',
    education: 'Educación y consejo al paciente', followUp: 'Seguimiento',
  },
  untranslated: 'sin traducir',
  systems: {
    Constitutional: 'General', HEENT: 'Cabeza y cuello', Cardiovascular: 'Cardiovascular', Respiratory: 'Respiratorio', Gastrointestinal: 'Gastrointestinal',
    Genitourinary: 'Genitourinario', Musculoskeletal: 'Musculoesquelético', Neurological: 'Neurológico', Psychiatric: 'Psiquiátrico', Skin: 'Piel',
    Endocrine: 'Endocrino', Hematologic: 'Hematológico', Neck: 'Cuello', Vitals: 'Signos vitales',
  },
  symptoms: pairs(`fever: fiebre; chills: escalofríos; night sweats: sudoración nocturna; fatigue: cansancio; weight loss: pérdida de peso;
    weight gain: aumento de peso; loss of appetite: pérdida de apetito; headache: cefalea; dizziness: mareo; lightheadedness: sensación de desvanecimiento;
    numbness: entumecimiento; tingling: hormigueo; weakness: debilidad; syncope: síncope; vision changes: cambios en la visión; sore throat: dolor de garganta;
    nasal congestion: congestión nasal; hearing loss: pérdida de audición; chest pain: dolor torácico; palpitations: palpitaciones;
    leg swelling: edema en las piernas; shortness of breath: disnea; cough: tos; wheezing: sibilancias; nausea: náuseas; vomiting: vómitos;
    diarrhea: diarrea; constipation: estreñimiento; abdominal pain: dolor abdominal; heartburn: pirosis; blood in the stool: sangre en las heces;
    bloating: distensión abdominal; dysuria: disuria; hematuria: hematuria; urinary symptoms: síntomas urinarios; joint pain: dolor articular;
    back pain: dolor de espalda; myalgia: mialgias; rash: exantema; bruising: hematomas; anxiety: ansiedad; depression: depresión; insomnia: insomnio;
    polydipsia: polidipsia; easy bleeding: sangrado fácil; edema: edema; knee pain: dolor de rodilla; shoulder pain: dolor de hombro; neck pain: dolor cervical;
    hip pain: dolor de cadera; urinary incontinence: incontinencia urinaria`),
  conditions: pairs(`hypertension: hipertensión arterial; type 2 diabetes mellitus: diabetes mellitus tipo 2; type 1 diabetes mellitus: diabetes mellitus tipo 1;
    diabetes: diabetes; hyperlipidemia: hiperlipidemia; congestive heart failure: insuficiencia cardíaca congestiva; coronary artery disease: enfermedad coronaria;
    atrial fibrillation: fibrilación auricular; copd: EPOC; asthma: asma; chronic kidney disease: enfermedad renal crónica; gerd: enfermedad por reflujo gastroesofágico;
    hypothyroidism: hipotiroidismo; obesity: obesidad; osteoarthritis: artrosis; depression: depresión; anxiety: ansiedad; migraine: migraña; pneumonia: neumonía;
    urinary tract infection: infección urinaria; acute bronchitis: bronquitis aguda; sinusitis: sinusitis; pharyngitis: faringitis; influenza: gripe;
    covid-19: COVID-19; low back pain: lumbalgia; ankle sprain: esguince de tobillo; lumbar strain: distensión lumbar; gout: gota; cellulitis: celulitis;
    anemia: anemia; obstructive sleep apnea: apnea obstructiva del sueño; allergic rhinitis: rinitis alérgica; kidney stones: litiasis renal;
    annual exam: revisión anual; acute lumbar strain: distensión lumbar aguda; fracture: fractura; concussion: conmoción cerebral`),
  frequencies: pairs(`once daily: una vez al día; twice daily: dos veces al día; three times daily: tres veces al día; four times daily: cuatro veces al día;
    every {n} hours: cada {n} horas; at bedtime: al acostarse; every other day: en días alternos; weekly: una vez a la semana; as needed: a demanda`),
  vitals: {
    bloodPressure: 'Presión arterial', heartRate: 'Frecuencia cardíaca', temperature: 'Temperatura', oxygenSaturation: 'Saturación de oxígeno',
    respiratoryRate: 'Frecuencia respiratoria', weight: 'Peso',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Iniciar {medication}.', continue: 'Continuar {medication}.', increase: 'Aumentar {drug} a {dose} {frequency}.',
    decrease: 'Reducir {drug} a {dose} {frequency}.', stop: 'Suspender {drug}.', prescribe: 'Prescribir {medication}.', refill: 'Renovar la receta de {medication}.',
  },
  order: 'Solicitar {test}.',
  refer: 'Derivar a {to}.',
  followUp: 'Control en {time}.',
  followUpAsNeeded: 'Control según necesidad.',
  time: { day: ['{n} día', '{n} días'], week: ['{n} semana', '{n} semanas'], month: ['{n} mes', '{n} meses'], year: ['{n} año', '{n} años'] },
  amounts: pairs(`a week: una semana; a month: un mes; a year: un año; a couple weeks: un par de semanas; a couple of weeks: un par de semanas;
    a couple months: un par de meses; a couple of months: un par de meses; a few days: unos días; a few weeks: unas semanas; a few months: unos meses`),
  tests: pairs(`echocardiogram: ecocardiograma; chest x-ray: radiografía de tórax; x-ray: radiografía; mri: resonancia magnética; ct scan: tomografía computarizada;
    ultrasound: ecografía; ekg: electrocardiograma; blood work: análisis de sangre; labs: analítica; lipid panel: perfil lipídico; hemoglobin a1c: hemoglobina A1c;
    cbc: hemograma completo; metabolic panel: panel metabólico; urinalysis: análisis de orina; urine culture: urocultivo; culture: cultivo; biopsy: biopsia;
    mammogram: mamografía; colonoscopy: colonoscopia; stress test: prueba de esfuerzo; sleep study: estudio del sueño; pulmonary function test: pruebas de función pulmonar;
    thyroid panel: perfil tiroideo; holter monitor: Holter; rapid strep test: prueba rápida de estreptococo; covid test: prueba de COVID;
    bone density scan: densitometría ósea; nerve conduction study: estudio de conducción nerviosa`),
  specialties: pairs(`physical therapy: fisioterapia; occupational therapy: terapia ocupacional; cardiology: cardiología; orthopedics: traumatología;
    neurology: neurología; dermatology: dermatología; endocrinology: endocrinología; gastroenterology: gastroenterología; pulmonology: neumología;
    rheumatology: reumatología; urology: urología; nephrology: nefrología; oncology: oncología; psychiatry: psiquiatría; counseling: psicoterapia;
    nutrition: nutrición; podiatry: podología; ent: otorrinolaringología; ophthalmology: oftalmología; surgery: cirugía; pain management: unidad del dolor;
    sleep medicine: unidad del sueño; neurosurgery: neurocirugía; hematology: hematología; gynecology: ginecología; infectious disease: enfermedades infecciosas; allergy: alergología; speech therapy: logopedia; audiology: audiología; vascular surgery: cirugía vascular`),
  exam: pairs(`regular rate and rhythm: ritmo regular con frecuencia normal; no murmurs: sin soplos; murmur: soplo; systolic ejection murmur: soplo sistólico eyectivo;
    clear to auscultation: auscultación limpia; lungs are clear: pulmones limpios; crackles: crepitantes; rales: estertores; rhonchi: roncus; wheezing: sibilancias;
    wheezes: sibilancias; edema: edema; pitting edema: edema con fóvea; no edema: sin edema; tenderness: dolor a la palpación; no tenderness: sin dolor a la palpación;
    pain to palpation: dolor a la palpación; swelling: tumefacción; erythema: eritema; bruising: hematoma; effusion: derrame;
    decreased range of motion: movilidad reducida; full range of motion: movilidad completa; jugular venous distention: ingurgitación yugular;
    lymphadenopathy: adenopatías; positive straight leg raise: Lasègue positivo; soft: blando; nontender: no doloroso; normal: normal;
    bilaterally: bilateral; bilateral: bilateral; right: derecho; left: izquierdo; at the bases: en las bases; lower extremities: extremidades inferiores;
    no: sin; mild: leve; moderate: moderado; severe: grave;
    tenderness to palpation: dolor a la palpación; no tenderness to palpation: sin dolor a la palpación; pain with flexion: dolor a la flexión;
    pain with extension: dolor a la extensión; pain with rotation: dolor a la rotación; pain with movement: dolor con el movimiento;
    pain with elevation: dolor a la elevación; pain with pronation: dolor a la pronación; pain with supination: dolor a la supinación;
    pain with compression: dolor a la compresión; pain with resisted movement: dolor contra resistencia; no pain with flexion: sin dolor a la flexión;
    no pain with extension: sin dolor a la extensión; no pain with rotation: sin dolor a la rotación;
    no pain with movement: sin dolor con el movimiento; medially: en la cara medial; laterally: en la cara lateral; anteriorly: en la cara anterior;
    posteriorly: en la cara posterior`),
};
