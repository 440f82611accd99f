/** Russian clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

// Symptom names in the accusative, as they follow "Отмечает" / "Отрицает".
export const RU: ClinicalPhrases = {
  reports: 'Отмечает', denies: 'Отрицает', and: 'и', comma: ', ', space: ' ', stop: '.',
  agreement: 'Пациент понимает рекомендованный план лечения и согласен с ним.',
  labels: {
    reasoning: 'Клиническое обоснование', testing: 'Дополнительное обследование', treatment: 'Лечение', referral: 'Направления к специалистам',
    education: 'Обучение и консультирование пациента', followUp: 'Контроль',
  },
  untranslated: 'без перевода',
  systems: {
    Constitutional: 'Общее', HEENT: 'ЛОР-органы', Cardiovascular: 'Сердечно-сосудистая система', Respiratory: 'Дыхательная система', Gastrointestinal: 'ЖКТ',
    Genitourinary: 'Мочеполовая система', Musculoskeletal: 'Опорно-двигательный аппарат', Neurological: 'Нервная система', Psychiatric: 'Психическое состояние',
    Skin: 'Кожа', Endocrine: 'Эндокринная система', Hematologic: 'Кроветворение', Neck: 'Шея', Vitals: 'Показатели жизнедеятельности',
  },
  symptoms: pairs(`fever: лихорадку; chills: озноб; night sweats: ночную потливость; fatigue: слабость; weight loss: потерю веса; weight gain: прибавку веса;
    loss of appetite: снижение аппетита; headache: головную боль; dizziness: головокружение; lightheadedness: предобморочное состояние; numbness: онемение;
    tingling: покалывание; weakness: слабость в конечностях; syncope: обмороки; vision changes: нарушения зрения; sore throat: боль в горле; nasal congestion: заложенность носа;
    hearing loss: снижение слуха; chest pain: боль в груди; palpitations: сердцебиение; leg swelling: отёки ног; shortness of breath: одышку; cough: кашель;
    wheezing: свистящее дыхание; nausea: тошноту; vomiting: рвоту; diarrhea: диарею; constipation: запор; abdominal pain: боль в животе; heartburn: изжогу;
    blood in the stool: кровь в стуле; bloating: вздутие живота; dysuria: дизурию; hematuria: гематурию; urinary symptoms: расстройства мочеиспускания;
    joint pain: боль в суставах; back pain: боль в спине; myalgia: боль в мышцах; rash: сыпь; bruising: синяки; anxiety: тревогу; depression: депрессию;
    insomnia: бессонницу; polydipsia: жажду; easy bleeding: повышенную кровоточивость; edema: отёки; knee pain: боль в колене; shoulder pain: боль в плече;
    neck pain: боль в шее; hip pain: боль в тазобедренном суставе; urinary incontinence: недержание мочи`),
  conditions: pairs(`hypertension: артериальная гипертензия; type 2 diabetes mellitus: сахарный диабет 2 типа; type 1 diabetes mellitus: сахарный диабет 1 типа;
    diabetes: сахарный диабет; hyperlipidemia: гиперлипидемия; congestive heart failure: хроническая сердечная недостаточность; coronary artery disease: ишемическая болезнь сердца;
    atrial fibrillation: фибрилляция предсердий; copd: ХОБЛ; asthma: бронхиальная астма; chronic kidney disease: хроническая болезнь почек;
    gerd: гастроэзофагеальная рефлюксная болезнь; hypothyroidism: гипотиреоз; obesity: ожирение; osteoarthritis: остеоартрит; depression: депрессия;
    anxiety: тревожное расстройство; migraine: мигрень; pneumonia: пневмония; urinary tract infection: инфекция мочевыводящих путей; acute bronchitis: острый бронхит;
    sinusitis: синусит; pharyngitis: фарингит; influenza: грипп; covid-19: COVID-19; low back pain: боль в пояснице; ankle sprain: растяжение связок голеностопного сустава;
    lumbar strain: растяжение мышц поясничного отдела; gout: подагра; cellulitis: флегмона; anemia: анемия; obstructive sleep apnea: обструктивное апноэ сна;
    allergic rhinitis: аллергический ринит; kidney stones: мочекаменная болезнь; annual exam: ежегодный осмотр; acute lumbar strain: острое растяжение мышц поясничного отдела;
    fracture: перелом; concussion: сотрясение головного мозга`),
  frequencies: pairs(`once daily: один раз в день; twice daily: два раза в день; three times daily: три раза в день; four times daily: четыре раза в день;
    every {n} hours: каждые {n} ч; at bedtime: на ночь; every other day: через день; weekly: один раз в неделю; as needed: по потребности`),
  vitals: {
    bloodPressure: 'Артериальное давление', heartRate: 'ЧСС', temperature: 'Температура', oxygenSaturation: 'Сатурация кислорода', respiratoryRate: 'ЧДД',
    weight: 'Масса тела',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Начать {medication}.', continue: 'Продолжить {medication}.', increase: 'Увеличить дозу {drug} до {dose} {frequency}.',
    decrease: 'Снизить дозу {drug} до {dose} {frequency}.', stop: 'Отменить {drug}.', prescribe: 'Назначить {medication}.', refill: 'Выписать повторный рецепт: {medication}.',
  },
  order: 'Назначить: {test}.',
  refer: 'Направить: {to}.',
  followUp: 'Повторный приём через {time}.',
  followUpAsNeeded: 'Повторный приём по необходимости.',
  time: { day: ['{n} дн.', '{n} дн.'], week: ['{n} нед.', '{n} нед.'], month: ['{n} мес.', '{n} мес.'], year: ['{n} г.', '{n} г.'] },
  amounts: pairs(`a week: неделю; a month: месяц; a year: год; a couple weeks: пару недель; a couple of weeks: пару недель; a couple months: пару месяцев;
    a couple of months: пару месяцев; a few days: несколько дней; a few weeks: несколько недель; a few months: несколько месяцев`),
  tests: pairs(`echocardiogram: эхокардиография; chest x-ray: рентгенография грудной клетки; x-ray: рентгенография; mri: МРТ; ct scan: КТ; ultrasound: УЗИ; ekg: ЭКГ;
    blood work: анализ крови; labs: лабораторные анализы; lipid panel: липидный профиль; hemoglobin a1c: гликированный гемоглобин (HbA1c); cbc: общий анализ крови;
    metabolic panel: биохимический анализ крови; urinalysis: общий анализ мочи; urine culture: посев мочи; culture: посев; biopsy: биопсия; mammogram: маммография;
    colonoscopy: колоноскопия; stress test: нагрузочный тест; sleep study: полисомнография; pulmonary function test: исследование функции внешнего дыхания;
    thyroid panel: гормоны щитовидной железы; holter monitor: холтеровское мониторирование; rapid strep test: экспресс-тест на стрептококк; covid test: тест на COVID;
    bone density scan: денситометрия; nerve conduction study: электронейромиография`),
  specialties: pairs(`physical therapy: лечебная физкультура; occupational therapy: эрготерапия; cardiology: кардиолог; orthopedics: ортопед; neurology: невролог;
    dermatology: дерматолог; endocrinology: эндокринолог; gastroenterology: гастроэнтеролог; pulmonology: пульмонолог; rheumatology: ревматолог; urology: уролог;
    nephrology: нефролог; oncology: онколог; psychiatry: психиатр; counseling: психотерапевт; nutrition: диетолог; podiatry: подолог; ent: оториноларинголог;
    ophthalmology: офтальмолог; surgery: хирург; pain management: специалист по лечению боли; sleep medicine: сомнолог; neurosurgery: нейрохирург; hematology: гематолог; gynecology: гинеколог; infectious disease: инфекционист; allergy: аллерголог; speech therapy: логопед; audiology: сурдолог; vascular surgery: сосудистый хирург`),
  exam: pairs(`regular rate and rhythm: ритм правильный, ЧСС в норме; no murmurs: шумов нет; murmur: шум; systolic ejection murmur: систолический шум изгнания;
    clear to auscultation: дыхание везикулярное; lungs are clear: хрипов нет; crackles: крепитация; rales: хрипы; rhonchi: сухие хрипы; wheezing: свистящие хрипы;
    wheezes: свистящие хрипы; edema: отёк; pitting edema: мягкий отёк с ямкой; no edema: отёков нет; tenderness: болезненность; no tenderness: безболезненно;
    pain to palpation: болезненность при пальпации; swelling: припухлость; erythema: эритема; bruising: гематома; effusion: выпот;
    decreased range of motion: ограничение объёма движений; full range of motion: объём движений полный; jugular venous distention: набухание шейных вен;
    lymphadenopathy: лимфаденопатия; positive straight leg raise: симптом Ласега положительный; soft: мягкий; nontender: безболезненный; normal: норма;
    bilaterally: с обеих сторон; bilateral: двусторонний; right: справа; left: слева; at the bases: в базальных отделах; lower extremities: нижние конечности;
    no: нет; mild: лёгкий; moderate: умеренный; severe: выраженный;
    tenderness to palpation: болезненность при пальпации; no tenderness to palpation: пальпация безболезненна; pain with flexion: боль при сгибании;
    pain with extension: боль при разгибании; pain with rotation: боль при ротации; pain with movement: боль при движении;
    pain with elevation: боль при подъёме; pain with pronation: боль при пронации; pain with supination: боль при супинации;
    pain with compression: боль при сдавлении; pain with resisted movement: боль при движении с сопротивлением;
    no pain with flexion: сгибание безболезненно; no pain with extension: разгибание безболезненно; no pain with rotation: ротация безболезненна;
    no pain with movement: движения безболезненны; medially: медиально; laterally: латерально; anteriorly: спереди; posteriorly: сзади`),
};
