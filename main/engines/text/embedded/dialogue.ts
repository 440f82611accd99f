/**
 * Question and answer, read together: a clinician's question and the patient's reply become one
 * written finding. "any chest pain?" "no" -> Denies chest pain (a review-of-systems finding);
 * "how long has that been going on?" "about five weeks" -> "This has been going on for about
 * 5 weeks."; "are you taking your medications?" "yes" -> "He is taking his medications.";
 * "does that sound like a plan?" "sounds good" -> the patient agrees with the plan. The reply
 * a finding was built from is marked as used, so its bare words ("about 5 weeks.") are not
 * written again.
 */
import { answerPolarity, contextOf } from '../../../services/clinical-language/context.js';
import { symptomsIn, type BodySystem } from '../../../services/clinical-language/lexicon.js';
import { pronounsFor, thirdPerson, type Gender } from './rewrite.js';
import { polishSentence } from './clean.js';
import { rewriteClinicianSentence } from './rewrite.js';
import { stripTalk } from './register.js';
import { informativeness } from './classify.js';
import type { Sentence } from './transcript.js';

export interface SymptomFinding {
  term: string;
  system: BodySystem;
  present: boolean;
  index: number;
}

/** A statement written from a question and its answer, placed at the answer's position. */
export interface ExchangeStatement {
  text: string;
  index: number;
}

export interface Exchanges {
  statements: ExchangeStatement[];
  findings: SymptomFinding[];
  /** Sentences (by index) whose content a statement or finding already carries. */
  used: Set<number>;
  /** The patient said yes when asked whether the plan was agreeable. */
  agreement: boolean;
}

const DURATION_QUESTION = /\bhow long\b|\bwhen did (?:this|that|it|these|those|the \w+|your \w+|you first|you start|you notice)|\bsince when\b|\bhow long ago\b|\bwhen was (?:the|this|that) first\b/i;
const TIME_PHRASE =
  /\b(?:(?:for|over|in) )?(?:the )?(?:(?:past|last) )?(?:about |around |approximately |almost |nearly |maybe |over |like )?(?:(?<![\d.])\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?|a|an|a couple(?: of)?|a few|several|one|two|three|four|five|six|seven|eight|nine|ten|a half)\s+(?:days?|weeks?|months?|years?|hours?)(?: ago| now| or so)?\b|\bsince (?:last |this )?[\p{L}\d ]{2,25}?(?=[,.;]|$| or so| so)/iu;
const AGREEMENT_QUESTION = /\b(?:does (?:that|this|everything) sound (?:good|ok|okay|fair|reasonable|alright|all right|like a (?:good )?plan)|sound (?:good|ok|okay)|are you (?:ok|okay|alright|comfortable|fine) with (?:that|this|the plan)|is that (?:ok|okay|alright|fair)(?: with you)?|how does that sound|do you agree)\b/i;
const AGREEMENT_REPLY = /^(?:\W*)(?:yes|yeah|yep|sure|okay|ok|alright|all right|sounds (?:good|great|fine|like a plan)|that sounds (?:good|great|fine|like a plan)|that's fine|that is fine|fine|perfect|great|no problem|absolutely|definitely|of course|that works)/i;
const YES_NO = /^(?:(?:and|so|okay|ok|now|also|alright)\s*,?\s+)*(do|does|did|are|is|was|were|have|has|can|could|will|would)\s+(you|your [\p{L} ]{2,30}?)\s+(.{3,80}?)\s*[?.]?$/iu;
const ANY_QUESTION =
  /^(?:(?:and|so|okay|ok|now|also|alright|how about|what about)\s*,?\s+)*(?:(?:do|did|have) you (?:have|had|get|got|notice|noticed|experience|experienced|take|use)\s+|(?:are|were) you (?:taking|using|on)\s+|(?:are|is|was|were) there\s+)?any\s+(?:other\s+|recent\s+|new\s+|known\s+)?([\p{L} ,-]{3,60}?)\s*[?.]?$/iu;
const AUX_NEGATIVE: Record<string, string> = { do: 'does not', does: 'does not', did: 'did not', are: 'is not', is: 'is not', was: 'was not', were: 'was not', have: 'has not', has: 'has not', can: 'cannot', could: 'could not', will: 'will not', would: 'would not' };
const AUX_POSITIVE: Record<string, string> = { are: 'is', is: 'is', was: 'was', were: 'was', have: 'has', has: 'has', can: 'can', could: 'could', will: 'will', would: 'would', did: 'did' };

/** Content words of a reply beyond its yes or no ("yes, I am" has none; "yes, every morning" has two). */
function extraWords(reply: string): number {
  const rest = reply.replace(/^\W*(?:yes|yeah|yep|yup|no|nope|nah|not really|i do|i don't|i did|i didn't|i am|i'm not|i'm|i have|i haven't)\b[\s,.!]*/i, '');
  return (rest.match(/\p{L}{3,}/gu) ?? []).filter((w) => !/^(the|and|but|that|this|just|really|well|think|sure|know|yeah|okay|not|any|have|am|was)$/i.test(w)).length;
}

/** The statement a yes/no question and its answer make ("are you taking your medications?" "yes"). */
function invert(question: string, negative: boolean, gender: Gender): string | undefined {
  const m = YES_NO.exec(stripTalk(question));
  if (!m) return undefined;
  const aux = m[1]!.toLowerCase();
  const who = m[2]!.toLowerCase();
  let rest = m[3]!.replace(/[?.]+$/, '').trim();
  if (/\b(or|what|which|how|when|where|why|who)\b/i.test(rest) || rest.split(/\s+/).length > 12) return undefined;
  const p = pronounsFor(gender);
  const subject = who === 'you' ? p.subject : who.replace(/^your\b/, p.possessive);
  const plural = who !== 'you' && /s$/.test(who) && !/ss$/.test(who);
  let verb: string;
  if (negative) verb = AUX_NEGATIVE[aux] ?? `${aux} not`;
  else if (aux === 'do' || aux === 'does') {
    // "do you smoke" -> "he smokes"; the verb takes the third person.
    const [first, ...others] = rest.split(/\s+/);
    rest = [plural ? first! : thirdPerson(first!), ...others].join(' ');
    verb = '';
  } else verb = AUX_POSITIVE[aux] ?? aux;
  if (plural && verb) verb = verb.replace(/^is\b/, 'are').replace(/^was\b/, 'were').replace(/^has\b/, 'have').replace(/^does\b/, 'do');
  if (!negative) rest = rest.replace(/\bany\s+/i, '');
  const text = rewriteClinicianSentence([subject, verb, rest].filter(Boolean).join(' '), gender);
  return polishSentence(text);
}

/** The answer's time ("about five weeks", "since labor day") as a sentence about the complaint. */
function duration(reply: string): string | undefined {
  const m = TIME_PHRASE.exec(reply);
  if (!m) return undefined;
  let phrase = m[0].trim().replace(/\s+(?:or so|now)$/i, '').replace(/^like\s+/i, 'about ');
  if (/\bago$/i.test(phrase)) return `This started ${phrase.replace(/^(?:for|over|in)\s+/i, '')}.`;
  if (/^since\b/i.test(phrase)) return `This has been going on ${phrase}.`;
  phrase = phrase.replace(/^(?:for|over|in)\s+/i, '');
  return `This has been going on for ${phrase}.`;
}

/** Reads every clinician question with the patient's reply that follows it. */
export function readExchanges(sentences: Sentence[], gender: Gender): Exchanges {
  const out: Exchanges = { statements: [], findings: [], used: new Set(), agreement: false };
  sentences.forEach((q, qi) => {
    if (!q.question || q.role === 'patient') return;
    // The reply: the first sentence of the patient's next turn, if that turn follows at once.
    const ri = sentences.findIndex((s, k) => k > qi && s.turn !== q.turn);
    const reply = sentences[ri];
    if (!reply || reply.role !== 'patient' || reply.turn !== q.turn + 1) return;
    // Only the last question of a turn is the one answered.
    if (sentences.slice(qi + 1, ri).some((s) => s.question)) return;
    const polarity = answerPolarity(reply.text);
    if (AGREEMENT_QUESTION.test(q.text) && AGREEMENT_REPLY.test(reply.text)) {
      out.agreement = true;
      out.used.add(ri);
      return;
    }
    const asked = symptomsIn(q.text);
    if (asked.length > 0) {
      // "any headache?" "no, just a headache": the reply naming the symptom speaks for itself.
      const named = asked.filter((a) => a.spoken.test(reply.text));
      if (named.length > 0) {
        for (const a of named) {
          const m = a.spoken.exec(reply.text)!;
          out.findings.push({ term: a.term, system: a.system, present: !contextOf(reply.text, m.index, m.index + m[0].length).negated, index: ri });
        }
        return;
      }
      if (polarity === 'negative') for (const a of asked) out.findings.push({ term: a.term, system: a.system, present: false, index: ri });
      // A "yes" to "fever or chills?" does not say which one: record only single-symptom questions.
      else if (polarity === 'positive' && asked.length === 1) out.findings.push({ term: asked[0]!.term, system: asked[0]!.system, present: true, index: ri });
      if (polarity && extraWords(reply.text) === 0) out.used.add(ri);
      return;
    }
    if (DURATION_QUESTION.test(q.text)) {
      const d = duration(reply.text);
      if (d) {
        out.statements.push({ text: d, index: ri });
        if (extraWords(reply.text.replace(TIME_PHRASE, '')) <= 2) out.used.add(ri);
      }
      return;
    }
    if (!polarity || extraWords(reply.text) > 3) return;
    const any = ANY_QUESTION.exec(stripTalk(q.text));
    // "any other issues, like high blood pressure?": what follows "like" is what was asked.
    const thing = any?.[1]!.replace(/^.*?,?\s+(?:like|such as|including)\s+/i, '').trim();
    if (any && thing && !/^(?:other\s+)?(?:questions?|concerns?|symptoms?|problems?|issues?|changes?|things?|thing else|else|of that|of those|of these)$/i.test(thing)) {
      out.statements.push({ text: polishSentence(`${polarity === 'negative' ? 'Denies' : 'Reports'} ${thing}`), index: ri });
      out.used.add(ri);
      return;
    }
    // Only a question about something clinical makes a statement ("are you ready to get started?" does not).
    const statement = informativeness(q.text) >= 0.5 ? invert(q.text, polarity === 'negative', gender) : undefined;
    if (statement) {
      out.statements.push({ text: statement, index: ri });
      out.used.add(ri);
    }
  });
  return out;
}
