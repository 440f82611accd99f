/** Portuguese clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const PT: ClinicalPhrases = {
  reports: 'Refere', denies: 'Nega', and: 'e', comma: ', ', space: ' ', stop: '.',
  agreement: 'O paciente compreende e concorda com o plano de tratamento recomendado.',
  labels: {
    reasoning: 'Raciocínio clínico', testing: 'Exames complementares', treatment: 'Tratamento', referral: 'Encaminhamentos',
    education: 'Educação e aconselhamento do paciente', followUp: 'Seguimento',
  },
  untranslated: 'não traduzido',
  systems: {
    Constitutional: 'Geral', HEENT: 'Cabeça e pescoço', Cardiovascular: 'Cardiovascular', Respiratory: 'Respiratório', Gastrointestinal: 'Gastrointestinal',
    Genitourinary: 'Geniturinário', Musculoskeletal: 'Musculoesquelético', Neurological: 'Neurológico', Psychiatric: 'Psiquiátrico', Skin: 'Pele',
    Endocrine: 'Endócrino', Hematologic: 'Hematológico', Neck: 'Pescoço', Vitals: 'Sinais vitais',
  },
  symptoms: pairs(`fever: febre; chills: calafrios; night sweats: suores noturnos; fatigue: cansaço; weight loss: perda de peso; weight gain: ganho de peso;
    loss of appetite: perda de apetite; headache: cefaleia; dizziness: tontura; lightheadedness: sensação de desmaio; numbness: dormência; tingling: formigamento;
    weakness: fraqueza; syncope: síncope; vision changes: alterações visuais; sore throat: dor de garganta; nasal congestion: congestão nasal; hearing loss: perda auditiva;
    chest pain: dor torácica; palpitations: palpitações; leg swelling: edema nas pernas; shortness of breath: dispneia; cough: tosse; wheezing: sibilância;
    nausea: náuseas; vomiting: vômitos; diarrhea: diarreia; constipation: constipação; abdominal pain: dor abdominal; heartburn: azia; blood in the stool: sangue nas fezes;
    bloating: distensão abdominal; dysuria: disúria; hematuria: hematúria; urinary symptoms: sintomas urinários; joint pain: dor articular; back pain: dor nas costas;
    myalgia: mialgia; rash: erupção cutânea; bruising: hematomas; anxiety: ansiedade; depression: depressão; insomnia: insônia; polydipsia: polidipsia;
    easy bleeding: sangramento fácil; edema: edema; knee pain: dor no joelho; shoulder pain: dor no ombro; neck pain: cervicalgia; hip pain: dor no quadril; urinary incontinence: incontinência urinária`),
  conditions: pairs(`hypertension: hipertensão arterial; type 2 diabetes mellitus: diabetes mellitus tipo 2; type 1 diabetes mellitus: diabetes mellitus tipo 1;
    diabetes: diabetes mellitus; hyperlipidemia: hiperlipidemia; congestive heart failure: insuficiência cardíaca congestiva; coronary artery disease: doença arterial coronariana;
    atrial fibrillation: fibrilação atrial; copd: DPOC; asthma: asma; chronic kidney disease: doença renal crônica; gerd: doença do refluxo gastroesofágico;
    hypothyroidism: hipotireoidismo; obesity: obesidade; osteoarthritis: osteoartrose; depression: depressão; anxiety: ansiedade; migraine: enxaqueca; pneumonia: pneumonia;
    urinary tract infection: infecção urinária; acute bronchitis: bronquite aguda; sinusitis: sinusite; pharyngitis: faringite; influenza: gripe; covid-19: COVID-19;
    low back pain: lombalgia; ankle sprain: entorse do tornozelo; lumbar strain: distensão lombar; gout: gota; cellulitis: celulite; anemia: anemia;
    obstructive sleep apnea: apneia obstrutiva do sono; allergic rhinitis: rinite alérgica; kidney stones: litíase renal; annual exam: consulta anual;
    acute lumbar strain: distensão lombar aguda; fracture: fratura; concussion: concussão cerebral`),
  frequencies: pairs(`once daily: uma vez ao dia; twice daily: duas vezes ao dia; three times daily: três vezes ao dia; four times daily: quatro vezes ao dia;
    every {n} hours: a cada {n} horas; at bedtime: ao deitar; every other day: em dias alternados; weekly: uma vez por semana; as needed: se necessário`),
  vitals: {
    bloodPressure: 'Pressão arterial', heartRate: 'Frequência cardíaca', temperature: 'Temperatura', oxygenSaturation: 'Saturação de oxigênio',
    respiratoryRate: 'Frequência respiratória', weight: 'Peso',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Iniciar {medication}.', continue: 'Manter {medication}.', increase: 'Aumentar {drug} para {dose} {frequency}.',
    decrease: 'Reduzir {drug} para {dose} {frequency}.', stop: 'Suspender {drug}.', prescribe: 'Prescrever {medication}.', refill: 'Renovar a receita de {medication}.',
  },
  order: 'Solicitar {test}.',
  refer: 'Encaminhar para {to}.',
  followUp: 'Retorno em {time}.',
  followUpAsNeeded: 'Retorno se necessário.',
  time: { day: ['{n} dia', '{n} dias'], week: ['{n} semana', '{n} semanas'], month: ['{n} mês', '{n} meses'], year: ['{n} ano', '{n} anos'] },
  amounts: pairs(`a week: uma semana; a month: um mês; a year: um ano; a couple weeks: umas duas semanas; a couple of weeks: umas duas semanas;
    a couple months: uns dois meses; a couple of months: uns dois meses; a few days: alguns dias; a few weeks: algumas semanas; a few months: alguns meses`),
  tests: pairs(`echocardiogram: ecocardiograma; chest x-ray: radiografia de tórax; x-ray: radiografia; mri: ressonância magnética; ct scan: tomografia computadorizada;
    ultrasound: ultrassonografia; ekg: eletrocardiograma; blood work: exames de sangue; labs: exames laboratoriais; lipid panel: perfil lipídico;
    hemoglobin a1c: hemoglobina glicada (HbA1c); cbc: hemograma completo; metabolic panel: painel metabólico; urinalysis: exame de urina; urine culture: urocultura;
    culture: cultura; biopsy: biópsia; mammogram: mamografia; colonoscopy: colonoscopia; stress test: teste ergométrico; sleep study: polissonografia;
    pulmonary function test: prova de função pulmonar; thyroid panel: função tireoidiana; holter monitor: Holter; rapid strep test: teste rápido para estreptococo;
    covid test: teste de COVID; bone density scan: densitometria óssea; nerve conduction study: eletroneuromiografia`),
  specialties: pairs(`physical therapy: fisioterapia; occupational therapy: terapia ocupacional; cardiology: cardiologia; orthopedics: ortopedia; neurology: neurologia;
    dermatology: dermatologia; endocrinology: endocrinologia; gastroenterology: gastroenterologia; pulmonology: pneumologia; rheumatology: reumatologia;
    urology: urologia; nephrology: nefrologia; oncology: oncologia; psychiatry: psiquiatria; counseling: psicoterapia; nutrition: nutrição; podiatry: podologia;
    ent: otorrinolaringologia; ophthalmology: oftalmologia; surgery: cirurgia; pain management: clínica da dor; sleep medicine: medicina do sono; neurosurgery: neurocirurgia; hematology: hematologia; gynecology: ginecologia; infectious disease: infectologia; allergy: alergologia; speech therapy: fonoaudiologia; audiology: audiologia; vascular surgery: cirurgia vascular`),
  exam: pairs(`regular rate and rhythm: ritmo regular, frequência normal; no murmurs: sem sopros; murmur: sopro; systolic ejection murmur: sopro sistólico ejetivo;
    clear to auscultation: ausculta limpa; lungs are clear: pulmões limpos; crackles: crepitações; rales: estertores; rhonchi: roncos; wheezing: sibilos; wheezes: sibilos;
    edema: edema; pitting edema: edema com cacifo; no edema: sem edema; tenderness: dor à palpação; no tenderness: sem dor à palpação; pain to palpation: dor à palpação;
    swelling: tumefação; erythema: eritema; bruising: equimose; effusion: derrame; decreased range of motion: amplitude de movimento reduzida;
    full range of motion: amplitude de movimento completa; jugular venous distention: turgência jugular; lymphadenopathy: linfadenopatia;
    positive straight leg raise: Lasègue positivo; soft: flácido; nontender: indolor; normal: normal; bilaterally: bilateralmente; bilateral: bilateral;
    right: direito; left: esquerdo; at the bases: nas bases; lower extremities: membros inferiores; no: sem; mild: leve; moderate: moderado; severe: grave;
    tenderness to palpation: dor à palpação; no tenderness to palpation: sem dor à palpação; pain with flexion: dor à flexão;
    pain with extension: dor à extensão; pain with rotation: dor à rotação; pain with movement: dor à mobilização;
    pain with elevation: dor à elevação; pain with pronation: dor à pronação; pain with supination: dor à supinação;
    pain with compression: dor à compressão; pain with resisted movement: dor contra resistência; no pain with flexion: sem dor à flexão;
    no pain with extension: sem dor à extensão; no pain with rotation: sem dor à rotação; no pain with movement: sem dor à mobilização;
    medially: medialmente; laterally: lateralmente; anteriorly: anteriormente; posteriorly: posteriormente`),
};
