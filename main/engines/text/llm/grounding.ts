/**
 * Guards against invented facts in model-written notes: a sentence is dropped when it carries a
 * number (dose, vital, duration) that no source states, or names a listed medication the sources
 * never mention. Sources are the transcript, previous note, context and instructions. Numbers
 * spoken as words in the sources ("five hundred milligrams") count as stated.
 */
import { isMedicationVariant as isVariantOf } from '../../../services/clinical-language/medications.js';
import { statedNumbers } from '../../../services/clinical-language/numbers.js';
import { sentenceSpans } from '../../../services/clinical-language/tokenize.js';

export interface Grounding {
  /** Returns `text` without the sentences that state facts no source supports. */
  keepSupported(text: string): string;
}

/**
 * @param sources texts the note may draw on
 * @param medications the caller's medication list (drugs that must not appear unless mentioned)
 */
export function createGrounding(sources: string[], medications: string[]): Grounding {
  const joined = sources.join('\n');
  const numbers = statedNumbers(joined);
  const sourceWords = joined.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu) ?? [];
  const mentioned = (drug: string): boolean => {
    const first = drug.toLowerCase().split(/\s+/)[0]!;
    return sourceWords.some((w) => w === first || isVariantOf(w, first));
  };
  // Number words are read in English only: for sources in another language the number check would
  // drop true sentences, so only the digit-free drug check applies there.
  const english = (joined.match(/\b(the|and|you|your|is|it|of|to|have|with|my|i|was|for|on|in|take|over)\b/gi) ?? []).length;
  const other =
    (joined.match(/(?<![\p{L}])(el|la|los|las|que|y|le|les|et|est|der|die|das|und|ist|il|che|di|não|você|и|в|не|что|на)(?![\p{L}])/giu) ?? []).length +
    (joined.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length / 2;
  const checkNumbers = english > 0 && english >= other;
  const unmentionedDrugs = medications.filter((m) => !mentioned(m)).map((m) => m.toLowerCase());

  const supported = (sentence: string): boolean => {
    for (const m of checkNumbers ? sentence.matchAll(/\d+(?:\.\d+)?/g) : []) {
      const value = String(Number(m[0]));
      // Four-digit years are dates, not doses: out of this guard's scope.
      if (/^(19|20)\d\d$/.test(m[0])) continue;
      if (!numbers.has(value)) return false;
    }
    const lower = sentence.toLowerCase();
    return !unmentionedDrugs.some((d) => new RegExp(`(?<![\\p{L}])${escape(d)}(?![\\p{L}])`, 'u').test(lower));
  };

  return {
    keepSupported(text: string): string {
      // Sentences, and lines of a list, each kept or dropped whole; line breaks between kept
      // sentences stay, so a list keeps its shape.
      let out = '';
      let prevEnd = 0;
      for (const s of sentenceSpans(text, { lineBreaks: true })) {
        const breaks = text.slice(prevEnd, s.start).match(/\n/g)?.join('') ?? '';
        prevEnd = s.end;
        if (!supported(s.text)) continue;
        out += out ? (breaks || ' ') + s.text : s.text;
      }
      return out;
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
