/**
 * Exam findings the patient's answer gives: the clinician asks during the exam ("does it hurt
 * when I press on your arm here?", "how about when I bend it?") and the reply says yes or no.
 * Clinicians chart these as findings ("tenderness to palpation of the arm", "no pain with
 * flexion"), never as the question. A reply that neither affirms nor denies ("about the same",
 * "not as much") gives nothing.
 */
import { laterality } from './attributes.js';
import { evidenceOf, type Said } from './said.js';
import type { ExamFinding, ExamSystem } from './types.js';

const PAIN = /\b(?:hurts?|hurting|pain\w*|tender\w*|sore|uncomfortable|discomfort)\b/i;
/** The manoeuvre, in the order tried: the first that matches names the finding. */
const MANOEUVRES: [RegExp, string][] = [
  [/\b(?:press\w*|push\w* (?:right )?(?:on|in|down|here|there)|palpat\w*|touch\w*|feel(?:ing)? (?:here|there|this|that|on))\b/i, 'tenderness to palpation'],
  [/\bpronat\w*/i, 'pain with pronation'],
  [/\bsupinat\w*/i, 'pain with supination'],
  [/\b(?:resist\w*|push\w* against|push\w* back|against (?:my|the) hand)\b/i, 'pain with resisted movement'],
  [/\b(?:straighten\w*|extend\w*|extension|(?:lean|bend|stand|go|arch)\w* (?:back|backwards?)|backwards?)\b/i, 'pain with extension'],
  [/\b(?:bend\w*|flex\w*)\b/i, 'pain with flexion'],
  [/\b(?:twist\w*|rotat\w*|turn\w*)\b/i, 'pain with rotation'],
  [/\b(?:raise|lift|elevat\w*|over (?:your|the) head)\b/i, 'pain with elevation'],
  [/\bsqueez\w*/i, 'pain with compression'],
  [/\b(?:mov\w*|walk\w*|stand\w*|put weight|bear weight)\b/i, 'pain with movement'],
];
const ASKS = /\b(?:(?:does|did|do) (?:that|it|this|you) (?:hurt|have any pain|feel (?:tender|sore))|is (?:that|this|it) (?:tender|painful|sore)|any pain|how about (?:when|if)|what about (?:when|if|the))\b/i;
const FOLLOW_UP = /^(?:and |so |okay |now )*(?:how about|what about|what if|and)\b/i;
const NO = /^(?:no|nope|nah|not really|not at all|not there|it does not|it doesn't|i do not|i don't|nothing|none)\b/i;
const YES = /^(?:yes|yeah|yep|yup|mm-hmm|uh-huh|it does|i do|that does|ouch|ow|oh|a little|a bit|little bit|kind of|sort of|some|that hurts|it hurts|it's (?:a little (?:bit )?)?(?:sore|tender|painful|uncomfortable)|sore|tender|painful|definitely|very|a lot)\b/i;
const MILD = /\b(?:a little|little bit|a bit|slightly|kind of|sort of|somewhat|mild\w*)\b/i;
// "Back" is a region only as a body part ("your back", "low back"), not in "move back".
const REGION = /\b(knee|shoulder|hip|ankle|wrist|elbow|hand|foot|finger|thumb|toe|heel|lower back|(?<=\b(?:your|my|the|his|her|low|upper|mid)\s)back|spine|neck|leg|arm|forearm|calf|thigh|shin|joint|abdomen|belly|stomach|chest|ribs?)s?\b/i;
const SITE = /\b(?:on |over )?the (inside|inner|outside|outer|front|back|top|bottom)\b/i;
const SITE_WORD: Record<string, string> = { inside: 'medially', inner: 'medially', outside: 'laterally', outer: 'laterally', front: 'anteriorly', back: 'posteriorly', top: 'superiorly', bottom: 'inferiorly' };

// "Your lower belly", "the right upper quadrant": where on the abdomen, which a finding keeps.
const ABDOMEN_PART = /\b((?:(?:left|right) )?(?:upper|lower|mid)(?: (?:left|right))?) (?:abdomen|belly|stomach|abdominal|quadrant)/i;

const systemOfRegion = (region: string | undefined): ExamSystem =>
  region && /\babdomen$/.test(region) ? 'Gastrointestinal' : region && /^(?:chest|ribs?)$/.test(region) ? 'Respiratory' : 'Musculoskeletal';

function manoeuvreOf(text: string): string | undefined {
  return MANOEUVRES.find(([re]) => re.test(text))?.[1];
}

/** The patient's reply as yes (with how much) or no; undefined when it says neither. */
function replyOf(reply: Said | undefined, turn: string): { yes: boolean; mild: boolean } | undefined {
  if (!reply || reply.speaker !== 'patient') return undefined;
  // "Uh, yeah. In fact, that hurts." answers in its second sentence.
  const t = (/^\W*(?:uh|um|oh|well)?\W*$/i.test(reply.spoken) ? turn : reply.spoken).replace(/^[\s,.]*(?:um|uh|well|oh|i'd say|i would say)\b[\s,]*/gi, '').trim().toLowerCase();
  // "It hurt before we increased the methotrexate, but..." answers about another time.
  if (/\b(?:about the same|not as much|not sure|i don't know|maybe|before|used to|but)\b/.test(t)) return undefined;
  if (NO.test(t)) return { yes: false, mild: false };
  if (YES.test(t) || (PAIN.test(t) && !/\b(?:not|no|never)\b|n't\b/.test(t))) return { yes: true, mild: MILD.test(t) };
  return undefined;
}

/** Findings from the exam's asked-and-answered manoeuvres. */
export function readExamAnswers(said: Said[]): { exam: ExamFinding[]; used: Set<number> } {
  const exam: ExamFinding[] = [];
  const used = new Set<number>();
  let region: { word: string; side?: ExamFinding['laterality'] } | undefined;
  let lastAsk: { i: number; manoeuvre: string } | undefined;
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.phase !== 'exam') continue;
    const named = REGION.exec(s.text);
    if (named) {
      let word = named[1]!.toLowerCase().replace(/^(?:belly|stomach)$/, 'abdomen');
      const part = word === 'abdomen' ? ABDOMEN_PART.exec(s.text)?.[1]?.toLowerCase() : undefined;
      if (part) word = `${part} abdomen`;
      // The region keeps its side when named again without one ("your right knee ... the knee").
      const side = laterality(s.text) ?? (region?.word === word ? region.side : undefined);
      region = { word, ...(side ? { side } : {}) };
    }
    // Unpunctuated speech loses the question mark: "... if you bend over does that hurt" still asks.
    const replyAt = s.reply ?? (ASKS.test(s.text) && said[s.i + 1]?.speaker === 'patient' && said[s.i + 1]!.turn !== s.turn ? s.i + 1 : undefined);
    if (replyAt === undefined) continue;
    // "How about when I bend it?" asks the pain question again; "what about the outside?" the manoeuvre too.
    const followUp = lastAsk !== undefined && FOLLOW_UP.test(s.text) && s.i - lastAsk.i <= 4 ? lastAsk : undefined;
    // "Can you move up a bit? Does it hurt?": the manoeuvre is the clinician's sentence before the question.
    const before = said[s.i - 1]?.speaker === 'clinician' && !said[s.i - 1]!.question ? said[s.i - 1]!.text : '';
    const replyTurn = said.filter((r) => r.turn === said[replyAt]!.turn).map((r) => r.spoken).join(' ');
    const painSaid = PAIN.test(s.text) || PAIN.test(replyTurn);
    const manoeuvre = painSaid || followUp ? manoeuvreOf(s.text) ?? (before ? manoeuvreOf(before) : undefined) ?? followUp?.manoeuvre : undefined;
    if (!manoeuvre) continue;
    lastAsk = { i: s.i, manoeuvre };
    const reply = replyOf(said[replyAt], replyTurn);
    if (!reply) continue;
    const site = SITE.exec(s.text)?.[1]?.toLowerCase();
    const system = systemOfRegion(region?.word);
    // Outside the limbs a finding is charted with where it was found ("tenderness to palpation of the lower abdomen").
    const where = system !== 'Musculoskeletal' && region ? `of the ${region.word}` : '';
    const words = [reply.yes && reply.mild ? 'mild' : '', manoeuvre, site ? SITE_WORD[site] : '', where].filter(Boolean).join(' ');
    const side = /\b(?:left|right)\b/.test(where) ? undefined : laterality(s.text) ?? region?.side;
    exam.push({
      system,
      ...(region ? { region: region.word } : {}),
      ...(side ? { laterality: side } : {}),
      finding: reply.yes ? words : `no ${words}`,
      presence: reply.yes ? 'reported' : 'denied',
      evidence: evidenceOf(s, said[replyAt]),
    });
    used.add(s.i);
  }
  return { exam, used };
}

/** A finding asked and answered that the clinician also stated in words is kept once, as stated. */
export function withoutRestated(asked: ExamFinding[], stated: ExamFinding[]): ExamFinding[] {
  const key = (f: string): string => (/tender|palpat/i.test(f) ? 'palpation' : /flex|bend/i.test(f) ? 'flexion' : /exten|straight/i.test(f) ? 'extension' : f);
  // A stated finding with no region of its own ("tenderness over the distal radius") is about the region being examined.
  return asked.filter((a) => !stated.some((s) => (s.region === a.region || s.region === undefined) && s.presence === a.presence && key(s.finding) === key(a.finding)));
}
