/**
 * Sentences for speech written without punctuation. Some recognisers (and some transcripts)
 * give a whole turn as one run of words: "so i'm going to do a quick exam for your vital signs
 * i do recognize a slight fever however your vitals look good now on your foot exam ...". Such
 * a run is cut where a new statement starts: before discourse markers ("so", "okay", "now",
 * "however"), a clinician's intentions ("I'm going to", "let's"), exam and topic leads ("on your
 * foot exam", "as far as"), questions ("do you", "how") and, in a longer stretch, a new subject
 * ("I noticed", "my wife"). Never after a word a sentence cannot end on ("the", "of", "my").
 * English cues.
 */

// Openers that start a statement; with `strong` a short run before them is enough.
const STRONG = [
  'so', 'okay', 'ok', 'alright', 'all right', 'now', 'however', 'unfortunately', 'fortunately', 'the good news', 'the bad news',
  'also', 'and then', 'but', 'well', 'yeah', 'actually', 'anyway', 'any other', 'as far as', 'in terms of', "let's", 'let me',
  "i'm gonna", "i'm going to", "i'm gon na", 'i am going to', 'i wanna', 'i wan na', 'i want to', "i'd like to", 'i would like to',
  "we're gonna", "we're going to", "we're gon na", "we'll", "i'll", 'regarding your', 'do you', 'did you',
  'have you', 'are you', 'can you', 'could you', 'is there', 'how are', 'how is', 'how do', 'how does', 'how did', 'how have', 'how has',
  'how long', 'how much', 'how many', 'how often', 'how about', 'what are', 'what is', "what's", 'what do', 'what does', 'what did',
  'what brings', 'what kind', 'what type', 'what about', 'any other',
].map((p) => p.split(' '));
// A new subject; only in a longer stretch, since "and looked down and saw" goes on without one.
const WEAK = [
  "i've", "i'm", "i'd", 'i', 'my', "it's", 'it', 'we', "we've", 'you', "you're", "there's", 'there', 'this', "that's", 'he', 'she', 'they',
].map((p) => p.split(' '));
// Words after which a sentence cannot end.
const NO_END = new Set(
  'a an the of to for with and or but my your his her our their in on at by from is was are were be been being am that which very about like than as if because so this these those some any no not i you we they it he she do does did have has had can could will would should just really also then when while what how who where whether give get let make help see tell show send put before after until unless once since refer prescribe order schedule bring take want need ask remind keep'.split(' '),
);
const STRONG_MIN = 4;
const WEAK_MIN = 10;

// "on your foot exam", "for your first problem": a lead only when what follows names an exam or a topic.
const LEAD = /^(?:on|for|in) (?:your|the) (?:[\p{L}']+ ){0,3}?(?:exam|examination|vitals?|vital signs|first|second|third|next|last|problem|issue)\b/u;

function startsWith(words: readonly string[], k: number, phrases: readonly string[][]): boolean {
  return phrases.some((p) => p.every((w, j) => words[k + j] === w)) || (phrases === STRONG && LEAD.test(words.slice(k, k + 7).join(' ')));
}

/**
 * Splits a run of unpunctuated speech into statements (each without end punctuation). Text
 * with punctuation of its own (a comma or more per fifteen words) is given back whole.
 */
export function segmentSpeech(text: string): string[] {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 2 * STRONG_MIN) return [text.trim()];
  const punctuation = (text.match(/[,;:.?!]/g) ?? []).length;
  if (punctuation * 15 >= tokens.length) return [text.trim()];
  const words = tokens.map((t) => t.toLowerCase().replace(/[^\p{L}\p{N}']/gu, ''));
  const out: string[] = [];
  let start = 0;
  for (let k = 1; k < tokens.length; k++) {
    const run = k - start;
    if (NO_END.has(words[k - 1]!)) continue;
    // "... muscular pain right now for your back pain I'm going to ...": after a phrase "now" ended, a topic lead starts the next statement.
    const afterNow = words[k - 1] === 'now' && /^(?:right|for|until|till|just)$/.test(words[k - 2] ?? '') && /^(?:for|regarding|as|in|with) (?:your|the|his|her) /.test(words.slice(k, k + 2).join(' ') + ' ');
    const strong = (run >= STRONG_MIN && startsWith(words, k, STRONG)) || (run >= STRONG_MIN && afterNow);
    const weak = !strong && run >= WEAK_MIN && startsWith(words, k, WEAK);
    if (!strong && !weak) continue;
    // "Right now", "for now", "until now": "now" ends the phrase it belongs to and starts nothing.
    if (words[k] === 'now' && /^(?:right|for|until|till|by|from|just|even|up)$/.test(words[k - 1]!)) continue;
    // A repeated word ("it it", "the the") is a stutter, not a new start.
    if (words[k] === words[k + 1]) continue;
    out.push(tokens.slice(start, k).join(' '));
    start = k;
  }
  out.push(tokens.slice(start).join(' '));
  return out;
}
