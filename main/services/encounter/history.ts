/**
 * Who the patient is (age, sex) and their history: past medical and surgical history, social
 * history (tobacco, alcohol, drugs, work, exercise) and family history, as said by the
 * clinician's introduction ("a 62-year-old male with a past medical history significant for
 * depression") or the patient's answers ("my mother had breast cancer").
 */
import { answerPolarity, contextOf } from '../clinical-language/context.js';
import { CONDITIONS, findingPhrases } from '../clinical-language/lexicon.js';
import { createPhraseMatcher } from '../clinical-language/phrase-match.js';
import { evidenceOf, type Said } from './said.js';
import type { EncounterInput, HistoryItem, PatientFacts } from './types.js';

const conditions = createPhraseMatcher(findingPhrases(CONDITIONS));
const AGE_SEX = /\b(\d{1,3})[- ]years?[- ]old\s+(?:(?:white|black|african american|hispanic|asian|caucasian|latino|latina)\s+)?(male|female|man|woman|gentleman|lady|boy|girl)?\b/i;
const FEMALE = /\b(?:she|her|hers|herself|mrs|ms|miss)\b/gi;
const MALE = /\b(?:he|him|his|himself|mr)\b/gi;
const PMH = /\b(?:(?:past )?medical history|history|pmh|h\/o)\b[^.]{0,20}?\b(?:significant for|of|includes|including|for)\b/i;
const SURGERY = /\b([a-z]+(?:ectomy|otomy|ostomy|plasty|pexy|scopy)|(?:knee|hip|shoulder) replacement|c-section|cesarean section|bypass surgery|hernia repair|acl (?:repair|reconstruction)|rotator cuff repair)\b/i;
const RELATIVE = /\b(mother|mom|father|dad|sister|brother|son|daughter|grandmother|grandfather|aunt|uncle|parents)\b/i;

/** Age and sex from the caller's patientInfo or what the clinician says. */
export function readPatient(said: Said[], input: EncounterInput): PatientFacts {
  const facts: PatientFacts = { evidence: [] };
  if (input.patientInfo?.sex) facts.sex = input.patientInfo.sex;
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.talk) continue;
    const m = AGE_SEX.exec(s.text);
    if (!m) continue;
    facts.age = Number(m[1]);
    if (!facts.sex && m[2]) facts.sex = /^(?:male|man|gentleman|boy)$/i.test(m[2]) ? 'male' : 'female';
    facts.evidence.push(...evidenceOf(s));
    break;
  }
  if (!facts.sex) {
    const honorific = said.find((s) => s.speaker === 'clinician' && /\b(?:mrs|ms|miss|mr|mister|missus|sir|ma'am)\b\.?(?:\s+[a-z]|\s*[,.?!]|$)/i.test(s.text));
    const m = honorific ? /\b(mrs|ms|miss|mr|mister|missus|sir|ma'am)\b/i.exec(honorific.text) : null;
    if (m) {
      facts.sex = /^(?:mr|mister|sir)$/i.test(m[1]!) ? 'male' : 'female';
      facts.evidence.push(...evidenceOf(honorific));
    }
  }
  if (!facts.sex) {
    // Third-person pronouns the clinician uses for the patient (dictation, or talk to a relative).
    // Not where someone else was just named: "can I see Doctor Harris?" "He's great, I've heard he does good work."
    const other = (s: Said | undefined): boolean => s !== undefined && OTHER_PERSON.test(s.text);
    const refersBack = (s: Said): boolean => /^(?:(?:yeah|oh|well|so)\W+)*(?:he|she|he's|she's|his|her)\b/i.test(s.text) && (other(said[s.i - 1]) || other(said[s.i - 2]));
    const text = said.filter((s) => s.speaker === 'clinician' && !s.talk && !refersBack(s)).map((s) => s.text).join(' ');
    const f = (text.match(FEMALE) ?? []).length;
    const m = (text.match(MALE) ?? []).length;
    if (f >= 2 && f >= 3 * m) facts.sex = 'female';
    else if (m >= 2 && m >= 3 * f) facts.sex = 'male';
  }
  return facts;
}

/** Another person named, whom a pronoun that follows may mean. */
const OTHER_PERSON = /\b(?:doctor|dr\.?|nurse|surgeon|specialist|husband|wife|son|daughter|mother|mom|father|dad|brother|sister|boyfriend|girlfriend|partner|friend|boss|coworker|grandmother|grandfather|uncle|aunt|cousin)\b/i;

const SOCIAL: { re: RegExp; term: (s: Said, negated: boolean) => string | undefined }[] = [
  { re: /\b(?:smok\w*|cigarettes?|tobacco|vap\w*|packs? a day|nicotine)\b/i, term: (s, neg) => (/\b(?:quit|used to|former|stopped)\b/i.test(s.text) ? 'former smoker' : neg ? 'never smoker' : /\bpacks?\b/i.test(s.text) ? `smokes ${/\b(\d+(?:\.\d+)?|half a|a) packs? (?:a|per) day\b/i.exec(s.text)?.[0] ?? 'cigarettes'}` : 'smokes') },
  { re: /\b(?:alcohol|drink(?:s|ing)?(?! water)|beers?|wine|liquor)\b/i, term: (s, neg) => (neg ? 'no alcohol use' : /\b(\d+) (?:drinks?|beers?|glasses)\b/i.test(s.text) ? `alcohol, ${/\b(\d+) (?:drinks?|beers?|glasses(?: of wine)?)(?: (?:a|per) (?:day|week|night))?/i.exec(s.text)![0]}` : /\b(?:socially|occasionally|social)\b/i.test(s.text) ? 'occasional alcohol use' : undefined) },
  { re: /\b(?:marijuana|cannabis|cocaine|heroin|recreational drugs?|illicit drugs?|street drugs)\b/i, term: (_s, neg) => (neg ? 'no recreational drug use' : undefined) },
];

const SURGERY_WHEN = /\b(\d+ years? ago|a (?:couple|few) (?:of )?years ago|in (?:the )?(?:(?:spring|summer|fall|autumn|winter) of )?(?:19|20)\d\d|last year)\b/i;

/** Medical, surgical, social and family history. */
export function readHistory(said: Said[]): { history: HistoryItem[]; used: Set<number> } {
  const out: HistoryItem[] = [];
  const used = new Set<number>();
  const push = (item: HistoryItem, s: Said): void => {
    if (out.some((o) => o.kind === item.kind && o.term === item.term && o.relative === item.relative)) return;
    out.push(item);
    used.add(s.i);
  };
  for (const s of said) {
    if (s.talk || s.phase === 'plan') continue;
    const reply = s.reply !== undefined ? said[s.reply] : undefined;
    // Family history asked and denied: "any family history of heart disease?" "no".
    if (s.speaker === 'clinician' && s.question) {
      if (!reply || answerPolarity(reply.spoken) !== 'negative') continue;
      const kind = /\bfamily\b/i.test(s.text) ? 'family' : 'medical';
      // "Any other issues, like high blood pressure or heart disease?" "No": each named is denied.
      const list = /\b(?:like|such as|history of|any)\s+([^?]{3,80})/i.exec(s.text)?.[1];
      const named = new Set(conditions.find(s.text).map((h) => h.value.term));
      if (list && (kind === 'medical' ? named.size > 0 || /\b(?:issues|problems|conditions|history)\b/i.test(s.text) : true)) {
        for (const part of list.split(/,\s*|\s+or\s+|\s+and\s+/)) {
          const words = part.replace(/^(?:any|other|like|a|an)\s+/gi, '').trim();
          if (!words || words.split(/\s+/).length > 4 || conditions.find(words).length > 0) continue;
          if (/\b(?:disease|cancer|attacks?|failure|stroke|diabetes|pressure|cholesterol)\b/i.test(words)) named.add(words.toLowerCase());
        }
      }
      for (const term of named) push({ kind, term, presence: 'denied', evidence: evidenceOf(s, reply) }, s);
      if (named.size) used.add(reply.i);
      continue;
    }
    const pmh = PMH.exec(s.text);
    for (const h of conditions.find(s.text)) {
      const ctx = contextOf(s.text, h.start, h.end);
      const relative = RELATIVE.exec(s.text.slice(Math.max(0, h.start - 60), h.end + 30))?.[1]?.toLowerCase();
      if (ctx.family || (relative && s.speaker !== 'clinician')) {
        // "A history of breast cancer in your family": the family's, though no relative is named.
        if (!relative && !/\bfamily\b/i.test(s.text)) continue;
        push({ kind: 'family', term: h.value.term, presence: ctx.negated ? 'denied' : 'reported', ...(relative ? { relative: relative === 'mom' ? 'mother' : relative === 'dad' ? 'father' : relative } : {}), evidence: evidenceOf(s) }, s);
        continue;
      }
      if (ctx.hypothetical) continue;
      if ((pmh && h.start > pmh.index) || ctx.historical) push({ kind: 'medical', term: h.value.term, presence: ctx.negated ? 'denied' : 'reported', evidence: evidenceOf(s) }, s);
    }
    const surgery = SURGERY.exec(s.text);
    if (surgery && /\b(?:had|prior|previous|history of|status post|s\/p|ago|back in|underwent|in (?:19|20)\d\d)\b/i.test(s.text) && !contextOf(s.text, surgery.index, surgery.index + surgery[0].length).negated) {
      // "You had a knee replacement in 2018?" "No, that was in the spring of 2020.": the patient's correction dates it.
      const next = said[s.i + 1];
      const corrected = s.speaker === 'clinician' && next?.speaker === 'patient' && next.turn !== s.turn && /\b(?:no|actually|that was|it was)\b/i.test(next.text) ? SURGERY_WHEN.exec(next.text)?.[1] : undefined;
      const when = corrected ?? SURGERY_WHEN.exec(s.text)?.[1];
      push({ kind: 'surgical', term: surgery[1]!.toLowerCase(), presence: 'reported', ...(when ? { when: when.replace(/couple of/, 'couple') } : {}), evidence: evidenceOf(s) }, s);
    }
    for (const social of SOCIAL) {
      const m = social.re.exec(s.text);
      const answer = s.speaker === 'patient' && s.answers !== undefined ? said[s.answers] : undefined;
      const source = m ? s : answer && social.re.test(answer.text) ? answer : undefined;
      if (!source || s.speaker === 'clinician') continue;
      const at = m ? m.index : 0;
      const neg = (m ? contextOf(s.text, at, at + m[0].length).negated : false) || (!m && answerPolarity(s.spoken) === 'negative');
      const term = social.term(s, neg);
      if (term) push({ kind: 'social', term, presence: neg ? 'denied' : 'reported', evidence: evidenceOf(answer, s) }, s);
    }
  }
  return { history: out, used };
}
