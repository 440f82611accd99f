/**
 * The clinical-register gate as the fidelity checker applies it to a written note: a sentence that
 * reads as speech rather than as a clinician's note is flagged, whoever wrote it. Speech shows as
 * talk to the patient ("you're doing great", "let's get an x-ray"), a question, a
 * disfluency ("um", a word said twice, a word cut off), conversational filler ("okay", "yeah"),
 * dictation commands and visit narration ("hey Dragon", "let's move on to the plan"), and a
 * fragment that stops on a word no sentence ends with. Telegraphic note style ("No effusion.",
 * "BP 120/80.") is clinical register: a sentence needs no subject here, unlike the gate the
 * embedded writer applies to dictation it keeps verbatim (encounter/register.ts). Words in quotes
 * are the patient's own, quoted on purpose, and are not judged.
 */
import { sentenceSpans } from '../clinical-language/index.js';
import { MARKER_SPAN, type FidelityIssue } from './fidelity-issue.js';

interface Span {
  start: number;
  end: number;
}

const RULES: [RegExp, string][] = [
  [/\b(?:hey|okay|ok) (?:dragon|dax)\b|\b(?:next|new) (?:paragraph|line)\b|\bend (?:of )?(?:dictation|recording)\b|\bscratch that\b/i, 'dictation command'],
  [/\b(?:let's|let us|we'll|we will|i'll|i will|i'm going to|i am going to) (?:move on|go ahead|talk about|take a look|turn to|go over|switch)\b|\bmoving on to\b/i, 'visit narration'],
  [/\?\s*$/, 'a question'],
  // Clinicians write "I have ordered an MRI" and "we discussed the options" (ACI-Bench's reference
  // notes do, 2026-11-27): the first person alone is note register; talking to the patient is not.
  [/\b(?:you|you're|you've|you'll|you'd|your|yours|yourself|let's|let me)\b/i, 'second person'],
  [/\b(?:um+|uh+|erm|hmm+|mm-?hmm|uh-huh|you know|i mean|i guess|gonna|wanna|kinda|sorta)\b|\b(\p{L}{2,})[,\s]+\1\b|\p{L}-(?=\s|$)|\.\.\.|--/iu, 'disfluency'],
  // "No effusion." and "Right knee pain." are notes; "Okay, ..." and "So, ..." are speech.
  [/^\W*(?:okay|ok|alright|all right|yeah|yep|yup|awesome|cool|wow|gosh)\b|^\W*(?:so|well|now|yes|no|right|sure),/i, 'conversational filler'],
  [/\b(?:stuff|thingy|pretty much|gotcha|awesome|you guys)\b/i, 'conversational filler'],
  // "…uncommon for her." ends well: "her" may be an object; "his", "their", "my" only own something.
  [/\b(?:the|a|an|and|or|but|of|to|with|for|from|his|their|your|my|is|are|was|were)\W*$/i, 'a fragment'],
];

/** Why a note sentence reads as speech, or undefined when it reads as a clinical note. */
export function noteRegisterFailure(sentence: string): string | undefined {
  const t = sentence
    .replace(/"[^"\n]*"|“[^”\n]*”/g, ' "" ')
    .replace(/^\s*(?:[-*+]\s+|\d{1,2}[.)]\s+)?(?:\*\*[^*\n]{1,60}\*\*:?\s*|[A-Z][\p{L} /&-]{1,40}:\s+)?/u, '')
    .trim();
  if (t.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length < 2) return undefined;
  for (const [re, why] of RULES) if (re.test(t)) return why;
  return undefined;
}

/** Sentences of a note that fail the register gate; each is marked, never removed, so nothing said is lost. */
export function checkRegister(text: string, free: (s: Span) => boolean): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    // Headings and table rules are layout.
    if (!/^\s*(?:#{1,6}\s|\|?\s*-{3})/.test(line)) {
      for (const s of sentenceSpans(line)) {
        // The marker stands after the sentence (an empty span at its end), beside any marker of a word in it.
        const end = offset + s.start + s.text.trimEnd().length;
        if (!free({ start: end, end })) continue;
        const why = noteRegisterFailure(s.text.replace(MARKER_SPAN, ' '));
        if (why) issues.push({ kind: 'register', start: end, end, text: s.text.replace(MARKER_SPAN, '').trim(), action: 'marked', reason: `reads as conversation (${why})` });
      }
    }
    offset += line.length + 1;
  }
  return issues;
}
