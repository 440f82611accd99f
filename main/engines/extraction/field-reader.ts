import type { FieldNode } from '../../services/extraction/ports.js';
import type { ClinicalFacts } from './facts.js';
import { enumFromText, escapeRe, mapToEnum } from './enum-mapping.js';
import type { Medication } from './medications.js';
import { displayName, type Mention } from './term-matcher.js';
import { isNegated } from '../../services/clinical-language/context.js';
import { splitList } from './text-analysis.js';
import { convertHeight, convertTemperature, convertWeight } from './vitals.js';
import { firstMatch, fitsPattern, mayMention } from './word-pattern.js';

/** Lower-case words of a field's name (camelCase and snake_case split), title and description. */
export function fieldWords(field: FieldNode): { key: string; all: string } {
  const split = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').toLowerCase().trim();
  const key = split(field.name || field.title || '');
  return { key, all: `${key} ${split(field.title ?? '')} ${(field.description ?? '').toLowerCase()}` };
}

const has = (s: string, re: RegExp): boolean => re.test(s);

/** Reads the value for one field: objects and arrays recurse, scalars go through the concept table. */
export function readField(field: FieldNode, facts: ClinicalFacts, parent = ''): unknown {
  const w = fieldWords(field);
  if (field.kind === 'object') return readObject(field, facts, w.key || parent);
  if (field.kind === 'array') {
    // Nothing found is "the text does not say": the service answers null or [] as the schema allows.
    const items = readArray(field, facts, w);
    return items && items.length > 0 ? items : undefined;
  }
  const byName = readScalar(field, facts, w, parent);
  if (byName !== undefined || !field.description) return byName;
  // The description is the caller's instruction: route by it when the name says nothing we know.
  const described = field.description.toLowerCase().replace(/[^a-z0-9/ ]+/g, ' ').replace(/\s+/g, ' ').trim();
  return readScalar(field, facts, { key: described, all: w.all }, parent);
}

function readObject(field: FieldNode, facts: ClinicalFacts, context: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const child of field.fields ?? []) {
    const value = readField(child, facts, context);
    if (value !== undefined) {
      out[child.name] = value;
      any = true;
    }
  }
  return any ? out : undefined;
}

type Kind = 'medications' | 'allergies' | 'negatives' | 'symptoms' | 'problems' | 'list';

function listKind(w: { key: string; all: string }): Kind {
  const k = w.key;
  if (has(k, /medication|\bmeds?\b|drug|prescri|\brx\b|pharm|medicine/)) return 'medications';
  if (has(k, /allerg/)) return 'allergies';
  if (has(k, /negat|denied|denies|absent|ruled out|pertinent neg/)) return 'negatives';
  if (has(k, /symptom|complaint|finding|presenting|\bros\b|signs/)) return 'symptoms';
  if (has(k, /problem|diagnos|condition|\bpmh\b|history|comorbid|disease|assessment|impression|\bdx\b|illness/)) return 'problems';
  if (has(w.all, /medication|drug/)) return 'medications';
  if (has(w.all, /allerg/)) return 'allergies';
  if (has(w.all, /symptom/)) return 'symptoms';
  if (has(w.all, /diagnos|condition|problem/)) return 'problems';
  return 'list';
}

function readArray(field: FieldNode, facts: ClinicalFacts, w: { key: string; all: string }): unknown[] | undefined {
  const item = field.item ?? { name: '', kind: 'string' as const };
  const kind = listKind(w);
  switch (kind) {
    case 'medications':
      return facts.medications.map((m) => medicationAs(item, m));
    case 'allergies':
      return facts.allergies.map((a) =>
        item.kind === 'object' ? objectFrom(item, { name: a.substance, substance: a.substance, reaction: a.reaction }) : a.substance);
    case 'negatives':
      return mentionsAs(item, [...facts.symptoms, ...facts.conditions].filter((m) => m.negated));
    case 'symptoms':
      return mentionsAs(item, facts.symptoms.filter((m) => !m.negated));
    case 'problems': {
      const wantHistory = has(w.all, /history|past|pmh|chronic|comorbid/);
      const wantAssessment = has(w.all, /diagnos|assessment|impression|\bdx\b/);
      let pool = facts.conditions.filter((m) => !m.negated);
      const preferred = pool.filter((m) => (wantHistory && m.section === 'pmh') || (wantAssessment && (m.section === 'assessment' || m.section === 'ap')));
      if (preferred.length > 0) pool = preferred;
      const names = mentionsAs(item, pool);
      return names;
    }
    default: {
      const section = facts.sections.find((s) => s.header === w.key || s.name === w.key || w.key.split(' ').includes(s.header));
      const label = facts.labels.get(w.key);
      const body = section?.body ?? label;
      if (body === undefined) return undefined;
      const values = splitList(firstParagraph(body)).map((s) => scalarFromText(item, s, facts));
      return values.filter((v) => v !== undefined);
    }
  }
}

function mentionsAs(item: FieldNode, mentions: Mention[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const m of mentions) {
    const name = displayName(m);
    if (seen.has(m.canonical)) continue;
    seen.add(m.canonical);
    if (item.kind === 'object') out.push(objectFrom(item, { name, description: name, condition: name, symptom: name, status: m.negated ? 'absent' : 'present', present: !m.negated }));
    else if (item.enum) {
      const mapped = mapToEnum(name, item.enum);
      if (mapped !== undefined) out.push(mapped);
    } else out.push(name);
  }
  return out;
}

function medicationAs(item: FieldNode, m: Medication): unknown {
  if (item.kind !== 'object') return m.text.replace(/\s+/g, ' ');
  return objectFrom(item, { name: m.name, dose: m.dose, route: m.route, frequency: m.frequency, text: m.text });
}

/** Fills an object item from named parts, matching each child field by its words. */
function objectFrom(item: FieldNode, parts: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const child of item.fields ?? []) {
    const k = fieldWords(child).key;
    let value: unknown;
    if (has(k, /dose|dosage|strength|amount|quantity/)) value = parts.dose;
    else if (has(k, /route|administ/)) value = parts.route;
    else if (has(k, /freq|sig|schedule|timing|how often|interval/)) value = parts.frequency;
    else if (has(k, /reaction|response|effect|manifest/)) value = parts.reaction;
    else if (has(k, /status|present/)) value = child.kind === 'boolean' ? parts.present : parts.status;
    else if (has(k, /substance|allergen|agent/)) value = parts.substance ?? parts.name;
    else if (has(k, /name|drug|medic|condition|diagnos|problem|symptom|description|text|label|term|title|value/)) value = parts.name;
    if (value === undefined) continue;
    if (child.enum) value = mapToEnum(String(value), child.enum);
    if (value !== undefined) out[child.name] = value;
  }
  return out;
}

function readScalar(field: FieldNode, facts: ClinicalFacts, w: { key: string; all: string }, parent: string): unknown {
  const k = w.key;
  const ctx = `${parent} ${k}`;
  const v = facts.vitals;
  const num = (n: number | undefined, text?: string): unknown => (n === undefined ? undefined : field.kind === 'string' ? text ?? String(n) : n);
  if (has(k, /systolic|\bsbp\b/)) return num(v.bp?.systolic);
  if (has(k, /diastolic|\bdbp\b/)) return num(v.bp?.diastolic);
  if (has(ctx, /blood pressure|\bbp\b/) && !has(k, /unit/)) return v.bp ? (field.kind === 'string' ? v.bp.text : undefined) : undefined;
  if (has(k, /heart rate|pulse|\bhr\b/)) return num(v.heartRate?.value, v.heartRate?.text);
  if (has(k, /temp/)) return v.temperature ? num(convertTemperature(v.temperature.value, v.temperature.unit, w.all), v.temperature.text) : undefined;
  if (has(k, /\bbmi\b|body mass/)) return num(v.bmi?.value, v.bmi?.text);
  if (has(k, /spo2|sp o2|o2 sat|oxygen|saturation|\bsat\b|pulse ox/)) return num(v.spo2?.value, v.spo2?.text);
  if (has(k, /resp|\brr\b|breath/)) return num(v.respiratoryRate?.value, v.respiratoryRate?.text);

  if (has(k, /height|\bht\b|stature/)) return v.height ? num(convertHeight(v.height.value, v.height.unit, w.all), v.height.text) : undefined;
  if (has(k, /weight|\bwt\b/) && !has(k, /gain|loss/)) return v.weight ? num(convertWeight(v.weight.value, v.weight.unit, w.all), v.weight.text) : undefined;
  if (has(k, /pain/) && (field.kind === 'number' || field.kind === 'integer' || has(k, /score|level|scale|rating/))) return num(v.pain?.value, v.pain?.text);
  if (has(k, /\bage\b/) && !has(k, /page|stage|dosage|usage/)) return num(facts.age, facts.age === undefined ? undefined : `${facts.age}`);
  if (has(k, /\bsex\b|gender/)) return facts.sex === undefined ? undefined : field.enum ? mapToEnum(facts.sex, field.enum) : capital(facts.sex);
  if (has(k, /birth|\bdob\b/)) return facts.dates.find((d) => /birth|dob|born|d\.o\.b/.test(d.before))?.iso;
  if (has(k, /allerg/) && field.kind === 'boolean') return facts.allergies.length > 0 ? true : facts.noKnownAllergies ? false : undefined;
  if (has(k, /smok|tobacco|cigar|nicotine/)) return smoking(field, facts);
  if (has(k, /alcohol|etoh|drink/)) return substanceUse(field, facts, /\b(?:alcohol|etoh|drinks?|beers?|wine|drinking)\b/i);
  if (has(k, /date|\bdos\b|when|onset|admi|discharg|visit day/) || field.format === 'date' || field.format === 'date-time') return readDate(field, facts, w);
  if (has(k, /^(?:patient )?(?:full )?name$|patient name|^pt name/)) return facts.name;
  if (has(k, /chief complaint|reason for (?:visit|consult)|\bcc\b|presenting complaint|main complaint/)) return chiefComplaint(facts);
  if (field.kind === 'boolean') return readBoolean(field, facts, w);
  if (field.kind === 'string' && !field.enum && has(k, /diagnos|assessment|impression|\bdx\b|primary problem/)) return diagnosis(facts);
  return readGeneric(field, facts, w);
}

function readDate(field: FieldNode, facts: ClinicalFacts, w: { key: string; all: string }): unknown {
  const dates = facts.dates.filter((d) => !/birth|dob|born/.test(d.before));
  if (dates.length === 0) return undefined;
  const cues: [RegExp, RegExp][] = [
    [/onset|start|began|since/, /onset|start|began|since|started/],
    [/admi/, /admi/],
    [/discharg/, /discharg/],
    [/follow|next|return/, /follow|return|next|recheck/],
    [/visit|encounter|service|\bdos\b|exam|seen/, /visit|encounter|service|dos\b|seen|date\s*:|date of/],
  ];
  for (const [fieldCue, textCue] of cues) {
    if (fieldCue.test(w.all)) {
      const hit = dates.find((d) => textCue.test(d.before));
      if (hit) return formatDate(hit.iso, field);
    }
  }
  return formatDate((dates[0] as { iso: string }).iso, field);
}

const formatDate = (iso: string, field: FieldNode): string => (field.format === 'date-time' ? `${iso}T00:00:00Z` : iso);

function chiefComplaint(facts: ClinicalFacts): string | undefined {
  const cc = facts.sections.find((s) => s.name === 'cc');
  if (cc) return firstSentence(cc.body);
  const m = /\b(?:presents?(?: to [a-z ]+?)? with|presenting with|complain(?:s|ing)? of|c\/o|here for|seen for|comes in (?:for|with))\s+([^.;\n]+)/i.exec(facts.text);
  if (m) return (m[1] as string).trim();
  const first = facts.symptoms.find((s) => !s.negated);
  return first ? displayName(first) : undefined;
}

function diagnosis(facts: ClinicalFacts): string | undefined {
  // The clinician's own words under Assessment/Impression/Diagnosis win over lexicon terms.
  const section = facts.sections.find((s) => s.name === 'assessment' || s.name === 'ap');
  const first = section ? splitList(firstSentence(section.body))[0] : undefined;
  if (first) return first;
  const pick = facts.conditions.find((m) => !m.negated);
  if (!pick) return undefined;
  // Keep a qualifier written just before the term ("unstable angina", "acute bronchitis").
  const before = /([A-Za-z-]+)\s+$/.exec(facts.text.slice(Math.max(0, pick.start - 20), pick.start))?.[1];
  const qualified = before && /^(?:acute|chronic|unstable|stable|uncontrolled|controlled|mild|moderate|severe|essential|primary|secondary|recurrent|viral|bacterial|allergic|diabetic|community-acquired|persistent|paroxysmal)$/i.test(before);
  return qualified ? `${before} ${displayName(pick)}` : displayName(pick);
}

function smoking(field: FieldNode, facts: ClinicalFacts): unknown {
  const t = facts.lower;
  let status: 'current' | 'former' | 'never' | undefined;
  if (/\b(?:never smok\w*|non-?smoker|denies (?:any )?(?:smoking|tobacco)|does not smoke|doesn't smoke|no (?:history of )?(?:smoking|tobacco)|never used tobacco)\b/.test(t)) status = 'never';
  else if (/\b(?:former smoker|ex-?smoker|quit smoking|quit \w+ (?:years?|months?) ago|stopped smoking|previously smoked|history of smoking|used to smoke)\b/.test(t)) status = 'former';
  else if (/\b(?:current smoker|smokes|smoking \d|pack[- ]?(?:per[- ]day|years?)|cigarettes? (?:a|per) day|active smoker|currently smok\w*|is a smoker|tobacco use)\b/.test(t)) status = 'current';
  if (status === undefined) return undefined;
  if (field.kind === 'boolean') return status === 'current';
  if (field.enum) return mapToEnum(status, field.enum);
  return status === 'never' ? 'never smoker' : status === 'former' ? 'former smoker' : 'current smoker';
}

function substanceUse(field: FieldNode, facts: ClinicalFacts, term: RegExp): unknown {
  const m = term.exec(facts.text);
  if (!m) return undefined;
  const negated = isNegated(facts.text, m.index, m.index + m[0].length) || /\b(?:denies|no|does not|doesn't|never)\b[^.]{0,20}$/i.test(facts.text.slice(Math.max(0, m.index - 30), m.index));
  if (field.kind === 'boolean') return !negated;
  if (field.enum) return mapToEnum(negated ? 'no' : 'yes', field.enum) ?? mapToEnum(negated ? 'never' : 'current', field.enum);
  return firstSentence(facts.text.slice(sentenceStart(facts.text, m.index)));
}

/** Booleans: the field's subject (name minus has/is/history-of) is looked up; negated means false. */
function readBoolean(field: FieldNode, facts: ClinicalFacts, w: { key: string; all: string }): boolean | undefined {
  const subject = w.key.replace(/^(?:has|is|was|had|any|history of|hx of|reports?|presence of|positive for|patient (?:has|is)|on|takes?|taking|uses?)\s+/, '').replace(/\s+(?:present|reported|flag|status|history)$/, '').trim();
  if (!subject) return undefined;
  const mentions = [...facts.symptoms, ...facts.conditions].filter((m) => m.canonical === subject || m.surface.toLowerCase() === subject || m.canonical.startsWith(subject) || subject.startsWith(m.canonical));
  if (mentions.length > 0) return mentions.some((m) => !m.negated);
  const med = facts.medications.find((m) => m.name.toLowerCase() === subject);
  if (med) return true;
  const stem = subject.replace(/(?:ic|es|s)$/, '');
  if (stem.length < 3 || !fitsPattern(stem) || !mayMention(stem, facts.text)) return undefined;
  const m = firstMatch(`\\b${stem.split(' ').map(escapeRe).join('[\\s-]+')}\\w*`, facts.text);
  if (!m) return undefined;
  return !isNegated(facts.text, m.start, m.end);
}

/** Other fields: a "Label: value" line or section named like the field, else a sentence about it. */
function readGeneric(field: FieldNode, facts: ClinicalFacts, w: { key: string; all: string }): unknown {
  const candidates = [w.key, w.key.replace(/\s+/g, ''), fieldWords({ ...field, name: field.title ?? '' }).key].filter(Boolean);
  for (const c of candidates) {
    const label = facts.labels.get(c);
    if (label !== undefined) return scalarFromText(field, firstSentence(label), facts);
    const section = facts.sections.find((s) => s.header === c || s.name === c);
    if (section) return scalarFromText(field, firstSentence(section.body), facts);
  }
  if (field.enum) return enumFromText(field.enum, facts.text, w);
  if ((field.kind === 'number' || field.kind === 'integer') && w.key.length >= 3 && fitsPattern(w.key) && mayMention(w.key, facts.text)) {
    // "phq9 score" must find "PHQ-9 score 8": letters and digits may be split by a hyphen or space.
    const words = w.key.split(' ').map((x) => escapeRe(x).replace(/([a-z])(\d)/g, '$1[-\\s]?$2'));
    const m = firstMatch(`\\b${words.join('[\\s\\w-]{0,12}?')}\\b[^\\d\\n.]{0,20}(-?\\d+(?:\\.\\d+)?)`, facts.text);
    if (m) return Number(m.group1);
  }
  return undefined;
}

function scalarFromText(field: FieldNode, value: string, facts: ClinicalFacts): unknown {
  if (field.enum) return mapToEnum(value, field.enum);
  if (field.kind === 'number' || field.kind === 'integer') {
    const m = /-?\d+(?:\.\d+)?/.exec(value);
    return m ? Number(m[0]) : undefined;
  }
  if (field.kind === 'boolean') return /^(?:yes|y|true|positive|present)\b/i.test(value) ? true : /^(?:no|n|false|negative|absent|none|denies)\b/i.test(value) ? false : undefined;
  if (field.format === 'date') return readDateFrom(value, facts);
  return value;
}

function readDateFrom(value: string, facts: ClinicalFacts): string | undefined {
  const at = facts.text.indexOf(value);
  return facts.dates.find((d) => d.start >= at && d.start < at + value.length)?.iso;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const firstParagraph = (s: string): string => s.split(/\n\s*\n/)[0] ?? s;
function firstSentence(s: string): string {
  return (/^[\s\S]*?(?:[.;](?=\s|$)|\n|$)/.exec(s)?.[0] ?? s).replace(/[.;]$/, '').trim();
}
function sentenceStart(text: string, at: number): number {
  return Math.max(text.lastIndexOf('.', at - 1), text.lastIndexOf('\n', at - 1)) + 1;
}
