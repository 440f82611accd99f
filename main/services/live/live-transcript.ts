/**
 * What a live session says about a stretch of its audio: the recognised words formatted as batch
 * formats them (dictation rules when asked), and the text a client shows. The socket layer turns
 * it into the wire message.
 */
import { punctuateWords, type PunctuatedWord } from '../transcriptions/dictation-format.js';
import type { RecognitionResult } from '../transcriptions/ports.js';

export interface LiveTranscript {
  isFinal: boolean;
  /** Seconds from the start of the session's audio; `end` is never before `start`. */
  start: number;
  end: number;
  /** Formatted words; words that format to nothing (a spoken command) are left out. */
  words: PunctuatedWord[];
  /** The punctuated words joined exactly as batch joins them. */
  text: string;
}

/** Formats a recognition result for the session window `start`..`end`. */
export function liveTranscript(
  result: RecognitionResult | null,
  window: { start: number; end: number },
  options: { isFinal: boolean; dictation: boolean },
): LiveTranscript {
  const raw = result?.words ?? [];
  const words = raw.length ? punctuateWords(raw, { dictation: options.dictation }).filter((w) => w.punctuated_word.trim()) : [];
  return {
    isFinal: options.isFinal,
    start: window.start,
    end: Math.max(window.end, window.start),
    words,
    // Dictation line breaks take no spaces around them.
    text: words.map((w) => w.punctuated_word).join(' ').replace(/ ?\n ?/g, '\n'),
  };
}
