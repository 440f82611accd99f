/** Chinese (Simplified) clinical phrases. Written for this project; sources and review: phrases/README.md. */
import { pairs } from './keys.js';
import type { ClinicalPhrases } from './types.js';

export const ZH: ClinicalPhrases = {
  reports: '自述', denies: '否认', and: '和', comma: '、', space: '', stop: '。',
  agreement: '患者理解并同意推荐的治疗方案。',
  labels: { reasoning: '临床推理', testing: '进一步检查', treatment: '治疗', referral: '专科转诊', education: '患者教育与咨询', followUp: '随访' },
  untranslated: '未翻译',
  systems: {
    Constitutional: '一般情况', HEENT: '头颈五官', Cardiovascular: '心血管', Respiratory: '呼吸', Gastrointestinal: '消化', Genitourinary: '泌尿生殖',
    Musculoskeletal: '肌肉骨骼', Neurological: '神经', Psychiatric: '精神', Skin: '皮肤', Endocrine: '内分泌', Hematologic: '血液', Neck: '颈部', Vitals: '生命体征',
  },
  symptoms: pairs(`fever: 发热; chills: 寒战; night sweats: 盗汗; fatigue: 乏力; weight loss: 体重减轻; weight gain: 体重增加; loss of appetite: 食欲减退; headache: 头痛;
    dizziness: 头晕; lightheadedness: 头重脚轻; numbness: 麻木; tingling: 刺痛感; weakness: 无力; syncope: 晕厥; vision changes: 视力改变; sore throat: 咽痛;
    nasal congestion: 鼻塞; hearing loss: 听力下降; chest pain: 胸痛; palpitations: 心悸; leg swelling: 下肢水肿; shortness of breath: 气短; cough: 咳嗽; wheezing: 喘鸣;
    nausea: 恶心; vomiting: 呕吐; diarrhea: 腹泻; constipation: 便秘; abdominal pain: 腹痛; heartburn: 烧心; blood in the stool: 便血; bloating: 腹胀; dysuria: 排尿困难;
    hematuria: 血尿; urinary symptoms: 排尿症状; joint pain: 关节痛; back pain: 背痛; myalgia: 肌痛; rash: 皮疹; bruising: 瘀斑; anxiety: 焦虑; depression: 抑郁;
    insomnia: 失眠; polydipsia: 多饮; easy bleeding: 易出血; edema: 水肿; knee pain: 膝关节痛; shoulder pain: 肩痛; neck pain: 颈痛; hip pain: 髋部疼痛; urinary incontinence: 尿失禁`),
  conditions: pairs(`hypertension: 高血压; type 2 diabetes mellitus: 2型糖尿病; type 1 diabetes mellitus: 1型糖尿病; diabetes: 糖尿病; hyperlipidemia: 高脂血症;
    congestive heart failure: 充血性心力衰竭; coronary artery disease: 冠状动脉疾病; atrial fibrillation: 心房颤动; copd: 慢性阻塞性肺疾病; asthma: 哮喘;
    chronic kidney disease: 慢性肾脏病; gerd: 胃食管反流病; hypothyroidism: 甲状腺功能减退; obesity: 肥胖; osteoarthritis: 骨关节炎; depression: 抑郁症;
    anxiety: 焦虑症; migraine: 偏头痛; pneumonia: 肺炎; urinary tract infection: 尿路感染; acute bronchitis: 急性支气管炎; sinusitis: 鼻窦炎; pharyngitis: 咽炎;
    influenza: 流感; covid-19: 新型冠状病毒感染; low back pain: 腰痛; ankle sprain: 踝关节扭伤; lumbar strain: 腰肌劳损; gout: 痛风; cellulitis: 蜂窝织炎;
    anemia: 贫血; obstructive sleep apnea: 阻塞性睡眠呼吸暂停; allergic rhinitis: 过敏性鼻炎; kidney stones: 肾结石; annual exam: 年度体检;
    acute lumbar strain: 急性腰肌拉伤; fracture: 骨折; concussion: 脑震荡`),
  frequencies: pairs(`once daily: 每日一次; twice daily: 每日两次; three times daily: 每日三次; four times daily: 每日四次; every {n} hours: 每{n}小时一次;
    at bedtime: 睡前; every other day: 隔日一次; weekly: 每周一次; as needed: 必要时`),
  vitals: { bloodPressure: '血压', heartRate: '心率', temperature: '体温', oxygenSaturation: '血氧饱和度', respiratoryRate: '呼吸频率', weight: '体重' },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: '开始使用{medication}。', continue: '继续使用{medication}。', increase: '{drug}加量至{dose}，{frequency}。', decrease: '{drug}减量至{dose}，{frequency}。',
    stop: '停用{drug}。', prescribe: '开具{medication}。', refill: '续开{medication}。',
  },
  order: '安排{test}。',
  refer: '转诊至{to}。',
  followUp: '{time}后复诊。',
  followUpAsNeeded: '必要时复诊。',
  time: { day: ['{n}天', '{n}天'], week: ['{n}周', '{n}周'], month: ['{n}个月', '{n}个月'], year: ['{n}年', '{n}年'] },
  amounts: pairs(`a week: 一周; a month: 一个月; a year: 一年; a couple weeks: 约两周; a couple of weeks: 约两周; a couple months: 约两个月; a couple of months: 约两个月;
    a few days: 数天; a few weeks: 数周; a few months: 数月`),
  tests: pairs(`echocardiogram: 超声心动图; chest x-ray: 胸部X线; x-ray: X线检查; mri: 磁共振成像; ct scan: CT检查; ultrasound: 超声检查; ekg: 心电图; blood work: 血液检查;
    labs: 实验室检查; lipid panel: 血脂; hemoglobin a1c: 糖化血红蛋白; cbc: 血常规; metabolic panel: 生化全套; urinalysis: 尿常规; urine culture: 尿培养; culture: 培养;
    biopsy: 活检; mammogram: 乳腺X线摄影; colonoscopy: 结肠镜检查; stress test: 运动负荷试验; sleep study: 多导睡眠监测; pulmonary function test: 肺功能检查;
    thyroid panel: 甲状腺功能; holter monitor: 动态心电图; rapid strep test: 链球菌快速检测; covid test: 新冠检测; bone density scan: 骨密度检查;
    nerve conduction study: 神经传导检查`),
  specialties: pairs(`physical therapy: 物理治疗; occupational therapy: 作业治疗; cardiology: 心内科; orthopedics: 骨科; neurology: 神经内科; dermatology: 皮肤科;
    endocrinology: 内分泌科; gastroenterology: 消化内科; pulmonology: 呼吸内科; rheumatology: 风湿免疫科; urology: 泌尿外科; nephrology: 肾内科; oncology: 肿瘤科;
    psychiatry: 精神科; counseling: 心理咨询; nutrition: 营养科; podiatry: 足病科; ent: 耳鼻喉科; ophthalmology: 眼科; surgery: 外科; pain management: 疼痛科;
    sleep medicine: 睡眠医学科; neurosurgery: 神经外科; hematology: 血液科; gynecology: 妇科; infectious disease: 感染科; allergy: 变态反应科; speech therapy: 言语治疗; audiology: 听力科; vascular surgery: 血管外科`),
  exam: pairs(`regular rate and rhythm: 心率齐，心律规整; no murmurs: 未闻及杂音; murmur: 杂音; systolic ejection murmur: 收缩期喷射性杂音; clear to auscultation: 听诊清;
    lungs are clear: 双肺呼吸音清; crackles: 湿啰音; rales: 啰音; rhonchi: 干啰音; wheezing: 哮鸣音; wheezes: 哮鸣音; edema: 水肿; pitting edema: 凹陷性水肿;
    no edema: 无水肿; tenderness: 压痛; no tenderness: 无压痛; pain to palpation: 触痛; swelling: 肿胀; erythema: 红斑; bruising: 瘀斑; effusion: 积液;
    decreased range of motion: 活动度减小; full range of motion: 活动度正常; jugular venous distention: 颈静脉怒张; lymphadenopathy: 淋巴结肿大;
    positive straight leg raise: 直腿抬高试验阳性; soft: 软; nontender: 无压痛; normal: 正常; bilaterally: 双侧; bilateral: 双侧; right: 右侧; left: 左侧;
    at the bases: 双肺底; lower extremities: 双下肢; no: 无; mild: 轻度; moderate: 中度; severe: 重度;
    tenderness to palpation: 触痛; no tenderness to palpation: 无触痛; pain with flexion: 屈曲时疼痛; pain with extension: 伸展时疼痛; pain with rotation: 旋转时疼痛;
    pain with movement: 活动时疼痛; pain with elevation: 上举时疼痛; pain with pronation: 旋前时疼痛; pain with supination: 旋后时疼痛; pain with compression: 挤压时疼痛;
    pain with resisted movement: 抗阻运动时疼痛; no pain with flexion: 屈曲时无疼痛; no pain with extension: 伸展时无疼痛; no pain with rotation: 旋转时无疼痛;
    no pain with movement: 活动时无疼痛; medially: 内侧; laterally: 外侧; anteriorly: 前方; posteriorly: 后方`),
};
