import { isNumberWord } from '../clinical-language/number-words.js';

/**
 * Spoken-language clean-up: tokenisation artefacts of ASR output ("do n't", " , "), fillers,
 * stutters and false starts. Meaning-bearing words are never removed.
 */

// "er" after an article is the emergency room ("when i got to the er"), not a hesitation.
const FILLERS = /(^|[\s,])(uh|uhm|um|umm|erm|(?<!\b(?:the|an|that|this|same)\s)er|ah|hmm+|mm+-?hmm+|mhm|uh-huh|huh|you know|i mean|like i said|kinda|sorta)(?=[\s,.?!]|$)/gi;

/** Clean one utterance: join split contractions, drop fillers and repeated words. */
export function cleanUtterance(text: string): string {
  let t = ` ${text} `;
  // ASR / Treebank tokenisation: "do n't", "it 's", "i 'm", spaced punctuation.
  t = t.replace(/\s+(n't|'s|'m|'re|'ve|'ll|'d)\b/gi, '$1');
  t = t.replace(/\b(ca|wo|do|does|did|is|are|was|were|have|has|had|could|would|should)\s+n't\b/gi, '$1n\'t');
  t = t.replace(/\s+([,.;:?!])/g, '$1');
  t = t.replace(/\bwhats\b/gi, "what's").replace(/\bwan na\b/gi, 'want to').replace(/\bgon na\b/gi, 'going to').replace(/\bgot ta\b/gi, 'got to');
  // A filler set off by commas inside a phrase ("acute lumbar , um , strain") leaves no comma behind.
  t = t.replace(/,\s*(?:uh|uhm|um|umm|erm|(?<!\b(?:the|an|that|this|same)\s)er|ah|hmm+|you know|i mean|i'm sorry|sorry)\s*,(?!\s*(?:i|i'm|i've|it|it's|we|you|he|she|they|this|that|there|so|and|but|my)\b)/gi, ' ');
  t = t.replace(FILLERS, '$1');
  // False starts: "ex- exerting", "c- colonoscopy", "we do mon-, i monitor it".
  t = t.replace(/\b[\p{L}]{1,6}-,\s*/gu, '');
  t = t.replace(/\b([\p{L}]{1,6})-\s+(?=\1)/giu, '');
  t = t.replace(/\b[\p{L}]{1,3}-\s+(?=[\p{L}])/gu, (m) => (/^(x|t|b|e)-/i.test(m) ? m : ''));
  // Stutters: "i , i , i've" -> "i've"; "the , the" -> "the".
  // A number word said twice ("six six") stays: it may be a correction or two numbers, and the
  // number reader marks it for review rather than the clean-up guessing.
  for (let i = 0; i < 3; i++) t = t.replace(/\b([\p{L}']+)(?:,?\s+\1\b)+/giu, (m, w: string) => (isNumberWord(w.toLowerCase()) ? m : w));
  // A phrase said twice ("i do want to increase i do want to increase the lisinopril").
  t = t.replace(/\b((?:[\p{L}']+\s+){1,4}[\p{L}']+),?\s+\1\b/giu, '$1');
  t = t.replace(/\b(i|it|the|a|and|but|so|we|you|my|to|that)[,]?\s+(?=\1['\s])/gi, '');
  t = t.replace(/(^|[.?!]\s+)(so|and|but|well|okay|ok|alright|all right|now|yeah|yes|right)\s*,\s*/gi, '$1');
  t = t.replace(/,(\s*,)+/g, ',');
  t = t.replace(/\s+,/g, ',');
  t = t.replace(/([.?!])\s*,/g, '$1');
  t = t.replace(/^\s*[,.]\s*/, '');
  t = t.replace(/\.{2,}/g, '.');
  t = t.replace(/\s{2,}/g, ' ');
  return t.trim();
}

/** Upper-case the first letter and the pronoun "I"; ensure terminal punctuation. */
export function polishSentence(text: string): string {
  let t = text.trim().replace(/\s+/g, ' ');
  t = t.replace(/^[,;:\-–—\s]+/, '').replace(/(\d)\s+%/g, '$1%');
  t = t.replace(/\bi\b(?=['\s,.?!]|$)/g, 'I');
  if (!t) return t;
  t = t.charAt(0).toUpperCase() + t.slice(1);
  if (!/[.?!。？！:]$/.test(t)) t += '.';
  t = t.replace(/[,\s-]*([.?!])$/, '$1');
  return t;
}
