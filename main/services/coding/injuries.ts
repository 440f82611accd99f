/**
 * Injuries (chapter 19, S00-T14) coded the way the table builds them: the kind of injury
 * (sprain, strain, fracture, contusion, bite ...), the site, the side, and the 7th character.
 * The coder's synonym index cannot list every site of every injury ("right index finger DIP joint
 * sprain", "MCL strain of the right knee"), so an injury named in the assessment is matched against
 * the titles of the injury codes themselves. Conventions applied (ICD-10-CM guidelines I.C.19):
 * 7th character A (initial encounter) while the injury is under active treatment; a fracture not
 * said to be open is closed, and not said to be nondisplaced is displaced; a torn or strained
 * ligament is a sprain; where the site is named but the table has no code for it, "other
 * specified" rather than "unspecified".
 */
import type { NoteSentence } from '../encounter/written-note.js';
import { readRole } from './mentions.js';
import type { CodeEntry, CodeTable } from './ports.js';
import { parseTitle, STOP_WORDS, wordsOf, type ParsedTitle } from './words.js';

/** The kinds of injury a note names, as the table's titles word them. */
const NATURE: Record<string, string> = {
  sprain: 'sprain', sprained: 'sprain', strain: 'strain', strained: 'strain', fracture: 'fracture', fractured: 'fracture',
  contusion: 'contusion', bruise: 'contusion', bite: 'bite', laceration: 'laceration', abrasion: 'abrasion', dislocation: 'dislocation',
  dislocated: 'dislocation', tear: 'tear', torn: 'tear', puncture: 'puncture',
};

/** Clinical words for the sites and parts the titles name (abbreviations and adjectives); a knee's ligaments and menisci, and the rotator cuff, name their joint. */
const SITE_WORDS: Record<string, string[]> = {
  neck: ['neck', 'cervical', 'spine'], cervical: ['cervical', 'spine', 'neck'], lumbar: ['lumbar', 'lower', 'back'], low: ['lower'],
  thoracic: ['thoracic', 'spine'], mcl: ['medial', 'collateral', 'ligament', 'knee'], lcl: ['lateral', 'collateral', 'ligament', 'knee'],
  acl: ['anterior', 'cruciate', 'ligament', 'knee'], pcl: ['posterior', 'cruciate', 'ligament', 'knee'], cruciate: ['cruciate', 'knee'], rotator: ['rotator', 'shoulder'], dip: ['interphalangeal', 'joint'],
  pip: ['interphalangeal', 'joint'], ip: ['interphalangeal', 'joint'], mcp: ['metacarpophalangeal', 'joint'], malleolar: ['malleolus'],
  meniscal: ['meniscus', 'knee'], meniscus: ['meniscus', 'knee'], tick: ['insect'], insect: ['insect'], spider: ['insect'], bug: ['insect'], mosquito: ['insect'],
  colle: ['colle', 'radius'], scaphoid: ['scaphoid', 'navicular'], ulnar: ['ulna'], radial: ['radius'], rib: ['rib'], ribs: ['rib'],
};
/** Body sites: an injury's site, read from its problem's lines when its heading names none. */
const SITES = new Set(['head', 'face', 'scalp', 'neck', 'cervical', 'thoracic', 'lumbar', 'back', 'chest', 'rib', 'shoulder', 'arm', 'elbow', 'forearm', 'wrist', 'hand', 'finger', 'thumb', 'hip', 'thigh', 'knee', 'leg', 'ankle', 'foot', 'toe', 'malleolar', 'malleolus', 'radius', 'ulna', 'fibula', 'tibia', 'clavicle', 'nose', 'eye', 'ear', 'lip']);
/** Title words that describe the default case and need no support in the text. */
const INJURY_SOFT = new Set(['initial', 'encounter', 'closed', 'displaced', 'current', 'injury', 'nonvenomous', 'part', 'level', 'muscle', 'fascia', 'tendon', 'ligament', 'joint', 'unspecified']);
const IGNORED = new Set(['acute', 'mild', 'moderate', 'severe', 'grade', 'pain', 'injury', 'minor', 'small', 'possible', 'new', 'recent', 'patient', 'this', 'with', 'his', 'her']);

const NOT_A_SITE = new Set(['insect', 'right', 'left', 'initial', 'encounter', 'closed', 'displaced', 'current', 'injury', 'nonvenomous', 'part', 'level']);

export interface InjuryFinding {
  entry: CodeEntry;
  spans: { start: number; end: number }[];
  /** The sentence it was read from (its codes replace concept-found injury codes of that sentence). */
  sentence: NoteSentence;
  why: string;
  score: number;
}

interface Pool {
  /** Kind of injury -> a required title word other than the kind -> the codes filed under it (each code once, under its first such word). */
  byNature: Map<string, Map<string, CodeEntry[]>>;
  titles: Map<string, ParsedTitle>;
}

/** Billable initial-encounter injury codes with their parsed titles, built once per table. */
export function injuryPool(table: CodeTable): Pool {
  const byNature = new Map<string, Map<string, CodeEntry[]>>();
  const titles = new Map<string, ParsedTitle>();
  const natures = new Set(Object.values(NATURE));
  for (const e of table.entries()) {
    if (!e.billable || !/^(S|T0|T1[0-4])/.test(e.code) || !/initial encounter/i.test(e.title) || /open fracture/i.test(e.title)) continue;
    const t = parseTitle(e.title, INJURY_SOFT);
    titles.set(e.code, t);
    const required = t.items.filter((i) => i.mode === 'required').map((i) => i.word);
    const first = required.find((w) => !natures.has(w));
    // A code fits a clause only when the clause has all its required words, so filing it under one of them finds it.
    for (const nature of required.filter((w) => natures.has(w))) {
      let words = byNature.get(nature);
      if (!words) byNature.set(nature, (words = new Map()));
      const key = first ?? '';
      words.set(key, [...(words.get(key) ?? []), e]);
    }
  }
  return { byNature, titles };
}

/** The words a clause gives an injury, with the site words added. */
function clauseWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of wordsOf(text)) {
    if (STOP_WORDS.has(w.norm)) continue;
    out.add(w.norm);
    for (const x of SITE_WORDS[w.norm] ?? []) out.add(x);
  }
  if (out.has('lower') && out.has('back')) out.add('lumbar');
  // A side ligament of a joint is its collateral ligament; the side malleoli are the fibula's and the tibia's.
  if (out.has('ligament') && (out.has('medial') || out.has('lateral')) && !out.has('cruciate')) out.add('collateral');
  if (out.has('malleolus') && out.has('lateral')) out.add('fibula');
  if (out.has('malleolus') && out.has('medial')) out.add('tibia');
  return out;
}

/** The best initial-encounter code whose required title words the clause supplies, or undefined. */
function chooseInjury(pool: Pool, nature: string, words: Set<string>): { entry: CodeEntry; score: number } | undefined {
  // A strained or torn ligament is a sprain in the table's words; "strain" is of muscle and tendon.
  const natures = nature === 'strain' && words.has('ligament') ? ['sprain'] : nature === 'tear' && words.has('ligament') ? ['sprain', 'tear'] : [nature];
  let best: { entry: CodeEntry; score: number; other: boolean; unspecified: boolean; used: Set<string> } | undefined;
  const seen = new Set<string>();
  const candidates: CodeEntry[] = [];
  for (const n of natures) {
    const filed = pool.byNature.get(n);
    for (const w of ['', ...words]) for (const e of filed?.get(w) ?? []) if (!seen.has(e.code)) (seen.add(e.code), candidates.push(e));
  }
  for (const e of candidates) {
    const t = pool.titles.get(e.code)!;
    let ok = true;
    let score = 0;
    const used = new Set<string>();
    for (const i of t.items) {
      const has = [i.word, ...(i.alt ?? [])].some((w) => words.has(w) || (natures.includes(w) && words.has(nature)));
      if (i.mode === 'required') {
        if (!has) ok = false;
        else (score += 1, used.add(i.word));
      } else if (i.mode === 'absent' && has) ok = false;
      else if (i.mode === 'soft' && has) (score += 0.3, used.add(i.word));
      if (!ok) break;
    }
    // The site must come from the text: a title whose site is "unspecified" does not fit a sentence that names none.
    if (!ok || ![...used].some((w) => !natures.includes(w) && !NOT_A_SITE.has(w))) continue;
    const c = { entry: e, score, other: t.other, unspecified: t.unspecified, used };
    if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && rankTie(c, best, words))) best = c;
  }
  return best;
}

/** At equal support: "other specified" when the text names a part the title does not, else "unspecified" before "other". */
function rankTie(a: { other: boolean; unspecified: boolean; used: Set<string> }, b: { other: boolean; unspecified: boolean; used: Set<string> }, words: Set<string>): boolean {
  const leftover = [...words].some((w) => !IGNORED.has(w) && !b.used.has(w) && !/^\d/.test(w) && w.length > 2 && !NATURE[w] && w !== 'right' && w !== 'left');
  if (a.other !== b.other) return leftover ? a.other : !a.other;
  return a.unspecified && !b.unspecified ? !leftover : false;
}

/**
 * The injuries the note's assessment names, each with its code. An injury the sentence negates,
 * doubts or places in the past is not coded. When the sentence names no side or no site, the
 * lines of the same problem (up to the next heading) supply them.
 */
export function findInjuries(inScope: readonly NoteSentence[], pool: Pool): InjuryFinding[] {
  const scope = inScope.filter((s) => s.section !== 'medications');
  const out: InjuryFinding[] = [];
  scope.forEach((sentence, index) => {
    const words = wordsOf(sentence.text, sentence.start);
    const hit = words.find((w) => NATURE[w.norm]);
    if (!hit) return;
    if (readRole(sentence, hit.start, hit.end) !== 'current') return;
    const nature = NATURE[hit.norm]!;
    // The clause that names the injury: back to the last full stop, semicolon or colon before it.
    const rel = hit.start - sentence.start;
    const from = Math.max(sentence.text.lastIndexOf(';', rel), sentence.text.lastIndexOf(':', rel), -1) + 1;
    const clause = sentence.text.slice(from, Math.min(sentence.text.length, rel + 80)).split(/[;:]/)[0]!;
    const own = clauseWords(clause);
    const problemLines = scope.slice(index + 1, index + 6).filter((s) => s.sectionIndex === sentence.sectionIndex).map((s) => s.text);
    const extra = clauseWords(problemLines.join(' '));
    if (!own.has('right') && !own.has('left')) for (const side of ['right', 'left']) if (extra.has(side) && !extra.has(side === 'right' ? 'left' : 'right')) own.add(side);
    if (![...own].some((w) => SITES.has(w))) for (const w of extra) if (SITES.has(w)) own.add(w);
    const choice = chooseInjury(pool, nature, own);
    if (!choice) return;
    const spanStart = sentence.start + from + (clause.length - clause.trimStart().length);
    const spanEnd = sentence.start + from + clause.trimEnd().replace(/[.,]+$/, '').length;
    out.push({
      entry: choice.entry, spans: [{ start: spanStart, end: Math.max(spanEnd, hit.end) }], sentence, score: choice.score,
      why: `injury: "${clause.trim()}" matched to the injury titles by kind, site and side${nature === 'strain' && own.has('ligament') ? ' (a strained ligament is a sprain)' : ''}; 7th character A (initial encounter, active treatment)${nature === 'fracture' ? '; a fracture not stated open is closed, not stated nondisplaced is displaced' : ''}`,
    });
  });
  return out;
}
