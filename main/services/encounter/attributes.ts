/**
 * Attributes said around a finding: side, duration, onset, severity, body site and qualities.
 * Each reader looks at one sentence and returns words as the speaker said them, normalised
 * (digits, no pronouns), never invented.
 */
import type { Laterality } from './types.js';

const COUNT = String.raw`(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple(?: of)?|couple(?: of)?|a few|few|several|many)`;
const UNIT = String.raw`(?:days?|weeks?|months?|years?|hours?|minutes?)`;
const DURATION = new RegExp(String.raw`\b(?:for|over|in) (?:the )?(?:about |almost |around |approximately |like |maybe |over |the (?:past|last) )?(${COUNT} ${UNIT}|(?:a|one) (?:day|week|month|year) or (?:so|two))\b|\b(?:the )?(?:past|last) (${COUNT} ${UNIT}|(?:day|week|month|year))\b`, 'i');
const ONSET = new RegExp(String.raw`\b(${COUNT} ${UNIT} ago|yesterday|this morning|last (?:night|week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|since (?:last \w+|yesterday|(?:this|the) (?:morning|weekend|fall|spring|summer|winter)|\w+day|january|february|march|april|may|june|july|august|september|october|november|december))\b`, 'i');
const SEVERITY = /\b(\d{1,2}) (?:out of|on a scale of \d+ to|over) 10\b|\b(\d{1,2})\/10\b|\b(mild|mildly|moderate|moderately|severe|severely|excruciating|terrible|horrible|unbearable|slight|slightly)\b/i;
const QUALITIES = /\b(sharp|dull|burning|throbbing|stabbing|aching|achy|shooting|cramping|crampy|pressure-like|squeezing|constant|intermittent|on and off|comes and goes|productive|dry|radiat(?:es|ing) (?:to|down|into) (?:the |my |your )?[a-z ]{3,20}?(?=[,.;]|$| and\b))/gi;
const WORSE_BETTER = /\b((?:worse|better|worsens|improves|aggravated|relieved|helped|improved) (?:with|when|by|at|in the) (?:[a-z-]+ ?){1,3}?)(?=[,.;]|$| (?:and|but|so|or)\b)/gi;

/**
 * How long, as said in `text`. With `at` (a finding's place in the sentence), a time said before an
 * "and" or "but" that precedes the finding is another finding's ("acne for a few months and some
 * chest pain": the months are the acne's).
 */
export function duration(text: string, at?: { start: number }): string | undefined {
  const m = DURATION.exec(text);
  if (!m || said(text, m, at)) return undefined;
  const t = tidyTime(m[1] ?? `1 ${m[2]}`);
  return /\d+\s+\d+/.test(t) ? undefined : t;
}

export function onset(text: string, at?: { start: number }): string | undefined {
  const m = ONSET.exec(text);
  return m && !said(text, m, at) ? tidyTime(m[1]!) : undefined;
}

/** True when a time matched at `m` was said of something before the finding at `at`, across a conjunction. */
function said(text: string, m: RegExpExecArray, at?: { start: number }): boolean {
  return at !== undefined && m.index + m[0].length <= at.start && /\b(?:and|but)\b/i.test(text.slice(m.index + m[0].length, at.start));
}

function tidyTime(t: string): string {
  return t.toLowerCase().replace(/^(?:a|an|one) (?=(?:day|week|month|year|hour|minute)s?\b)/, '1 ').replace(/^(?:a )?couple(?: of)? /, '2 ').replace(/^(?:a )?few /, 'a few ').trim();
}

export function severity(text: string): string | undefined {
  const m = SEVERITY.exec(text);
  if (!m) return undefined;
  if (m[1] ?? m[2]) return `${m[1] ?? m[2]}/10`;
  const w = m[3]!.toLowerCase();
  if (/^(mild|slight)/.test(w)) return 'mild';
  if (/^moderate/.test(w)) return 'moderate';
  return 'severe';
}

// "Problems with walking" names another problem, not what brings the symptom on.
const TRIGGER = /\b(?:when|(?<!\b(?:problems?|trouble|difficult(?:y|ies)|issues?|help|changes?) )with|after|while|if) (?:i |you |he |she )?(?:climb(?:ing)?|walk(?:ing)?|exert(?:ing|ion)?|exercis(?:e|ing)|run(?:ning)?|lying down|lie down|eat(?:ing)?|bend(?:ing)?|stand(?:ing)?|lift(?:ing)?|cough(?:ing)?|breath(?:e|ing) in|go(?:ing)? up)(?: (?:the|a|up|down) \w+)?/i;

/** Qualities, triggers and relievers said in the sentence ("productive", "worse at night"). */
export function modifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(QUALITIES)) out.push(m[1]!.toLowerCase().replace(/\b(?:my|your)\b\s*/g, ''));
  const trigger = TRIGGER.exec(text);
  if (trigger) {
    const verb = trigger[0].toLowerCase().replace(/^(?:when|with|after|while|if) (?:i |you |he |she )?/, '');
    out.push(/^(?:exert|exercis|run|climb|walk|go)/.test(verb) ? 'on exertion' : `with ${verb.replace(/^lie down$/, 'lying down').replace(/^(\w+?)(?:e)?$/, (w) => (/ing$/.test(w) ? w : w))}`);
  }
  for (const m of text.matchAll(WORSE_BETTER)) {
    const phrase = m[1]!.toLowerCase().replace(/\b(?:my|your|i|you)\b\s*/g, '').trim();
    if (phrase.split(' ').length >= 2) out.push(phrase);
  }
  return [...new Set(out)];
}

const SIDE = /\b(left|right|both|bilateral|bilaterally)\b/gi;

/** "Right now", "right here", "all right", "that's right", "..., right?" are no side. */
function notASide(text: string, at: number): boolean {
  // A side names a part next ("right knee"); "right, so", "right. and" and "right okay" are talk.
  return /^right(?: (?:now|away|there|here|after|before|when|at|about|back|on|off|so|and|okay|ok|well|um|uh|yeah|then|but)\b|\s*[?,.!])/i.test(text.slice(at)) || /\b(?:all|that's|that is|you're|you are|is that)\s+$|,\s*$/i.test(text.slice(Math.max(0, at - 12), at));
}

/** The side said nearest to `[at, end)` in the text (within eight words), if any. */
export function laterality(text: string, at = 0, end = text.length): Laterality | undefined {
  let best: { side: Laterality; d: number } | undefined;
  for (const m of text.matchAll(SIDE)) {
    const d = m.index < at ? at - m.index : Math.max(0, m.index - end);
    const words = text.slice(Math.min(m.index, end), Math.max(m.index, at)).split(/\s+/).length;
    if (words > 8) continue;
    const w = m[1]!.toLowerCase();
    const side: Laterality = w === 'left' ? 'left' : w === 'right' ? 'right' : 'bilateral';
    // "right now", "right away", "all right" are no side.
    if (side === 'right' && notASide(text, m.index)) continue;
    if (!best || d < best.d) best = { side, d };
  }
  return best?.side;
}

/** Body sites a patient names when something hurts there (singular, as a note writes them). */
export const BODY_SITES = [
  'lower back', 'upper back', 'back', 'neck', 'shoulder', 'elbow', 'wrist', 'hand', 'finger', 'thumb', 'hip', 'knee', 'ankle', 'foot', 'toe', 'heel',
  'leg', 'arm', 'calf', 'thigh', 'chest', 'abdomen', 'stomach', 'belly', 'head', 'jaw', 'ear', 'eye', 'throat', 'tooth', 'groin', 'flank', 'side',
] as const;
/** A body site named as a word of its own ("knee", "knees"); group 1 the site. */
export const SITE_RE = new RegExp(String.raw`\b(${BODY_SITES.join('|')})s?\b`, 'i');
// "My lower back has been bothering me", "my elbows have been acting up": how patients say a part hurts.
const HURT = /\b(pain|painful|hurts?|hurting|sore|soreness|aches?|aching|achy|tender|bother(?:s|ing|ed)? me|acting up|act(?:s|ed)? up|flar(?:ing|ed|es) up|giving me (?:trouble|problems))\b/i;

/** "my right knee hurts", "pain in my lower back": the site and side of a pain, when the sentence says one. */
export function painSite(text: string): { site: string; laterality?: Laterality; start: number; end: number } | undefined {
  const hurt = HURT.exec(text);
  if (!hurt) return undefined;
  const window = text.slice(Math.max(0, hurt.index - 60), hurt.index + 60);
  // "The back of my heel", "the side of my knee": the part named after "of" is the site.
  // "Get back up", "it comes back": "back" as an adverb is no site.
  const site = [...window.matchAll(new RegExp(SITE_RE.source, 'gi'))].find((m) => {
    const after = window.slice(m.index + m[0].length);
    if (/^(?:back|side)s?$/i.test(m[0]) && /^\s+of\b/i.test(after)) return false;
    const owned = /\b(?:my|the|his|her|your|their|lower|upper|low|mid|middle)\s+$/i.test(window.slice(0, m.index));
    return owned || !(/^back$/i.test(m[0]) && (/^\s+(?:up|down|to|in|into|home|out|on|again|and forth|then|there|here)\b/i.test(after) || /\b(?:get|gets|got|getting|come|comes|came|coming|go|goes|went|going|call|bring|put|sit|lie|lay|be|been|was|it's|went|way)\s+$/i.test(window.slice(0, m.index))));
  });
  if (!site) return undefined;
  const start = Math.max(0, hurt.index - 60) + site.index;
  let name = site[1]!.toLowerCase();
  if (name === 'stomach' || name === 'belly') name = 'abdomen';
  const side = laterality(text, start, start + site[0].length);
  return { site: name, ...(side ? { laterality: side } : {}), start: Math.min(start, hurt.index), end: Math.max(start + site[0].length, hurt.index + hurt[0].length) };
}
