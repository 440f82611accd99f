import type { AudioDecoder, RecognizedWord, SpeakerDiarizer, SpeakerTurn, SpeechRecognizer, VoiceActivityDetector } from './ports.js';
import type { TranscriptionOptions, TranscriptionPipeline, TranscribedUtterance, TranscribedWord, TranscriptResult } from './transcription-service.js';
import { assignSpeakers, diarize } from './diarization.js';
import { punctuateWords } from './dictation-format.js';

/** A pause longer than this between two words of one speaker starts a new utterance (seconds). */
const UTTERANCE_GAP = 1.0;

function downmix(channels: Int16Array[]): Int16Array {
  if (channels.length === 1) return channels[0]!;
  const length = Math.min(...channels.map((c) => c.length));
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const c of channels) sum += c[i]!;
    out[i] = Math.round(sum / channels.length);
  }
  return out;
}

/** Groups timed words into utterances: same speaker, no long pause. */
function groupUtterances(words: Array<RecognizedWord & { speaker: number | null }>): Array<Array<RecognizedWord & { speaker: number | null }>> {
  const groups: Array<Array<RecognizedWord & { speaker: number | null }>> = [];
  for (const word of words) {
    const current = groups[groups.length - 1];
    const last = current?.[current.length - 1];
    if (current && last && last.speaker === word.speaker && word.start - last.end <= UTTERANCE_GAP) current.push(word);
    else groups.push([word]);
  }
  return groups;
}

/**
 * Keeps every word inside the recording: a recogniser that stamps a word past the end (or
 * before the start) would otherwise give utterance times the audio does not have.
 */
export function clampWordTimes<W extends RecognizedWord>(words: W[], durationSec: number): W[] {
  const inside = (t: number): number => Math.min(Math.max(t, 0), durationSec);
  return words.map((w) => ({ ...w, start: inside(w.start), end: inside(Math.max(w.start, w.end)) }));
}

const mean = (values: number[]): number => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const round = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The batch pipeline: decode with ffmpeg (channels kept apart for diarization), recognise the
 * downmix, diarize (a speaker per differing channel, else clustering of voice segments), then
 * group words into utterances and format them (dictation rules when asked).
 */
export function createTranscriptionPipeline(deps: {
  decoder: AudioDecoder;
  /** The recogniser of an engine name, for the account (an account may have its own adapted one). */
  recognizer: (engine?: string, accountId?: string) => SpeechRecognizer | Promise<SpeechRecognizer>;
  vad: () => VoiceActivityDetector;
  /** Tells voices apart within one channel. */
  diarizer: SpeakerDiarizer;
}): TranscriptionPipeline {
  return async (audioPath: string, options: TranscriptionOptions, accountId?: string): Promise<TranscriptResult> => {
    const recognizer = await deps.recognizer(options.engine, accountId);
    const audio = await deps.decoder.decodeFile(audioPath, { sampleRate: recognizer.sampleRate, keepChannels: options.diarization });
    const mono = downmix(audio.channels);
    const recognized = await recognizer.transcribe(mono, { language: options.language });
    const recognizedWords = clampWordTimes(recognized.words, audio.durationSec);
    const turns: SpeakerTurn[] = options.diarization && recognizedWords.length ? await diarize(audio, { vad: deps.vad(), diarizer: deps.diarizer }) : [];
    const speakered: Array<RecognizedWord & { speaker: number | null }> = options.diarization
      ? assignSpeakers(recognizedWords, turns)
      : recognizedWords.map((w) => ({ ...w, speaker: null }));
    const words: TranscribedWord[] = [];
    const utterances: TranscribedUtterance[] = [];
    for (const group of groupUtterances(speakered)) {
      const speaker = group[0]!.speaker;
      const formatted = punctuateWords(group, { dictation: options.dictation }).filter((w) => w.punctuated_word.trim());
      if (!formatted.length) continue;
      for (const w of formatted) {
        words.push({ word: w.word, punctuated_word: w.punctuated_word, start: round(w.start), end: round(w.end), confidence: round(w.confidence), speaker });
      }
      utterances.push({
        speaker,
        start: round(formatted[0]!.start),
        end: round(formatted[formatted.length - 1]!.end),
        text: formatted.map((w) => w.punctuated_word).join(' ').replace(/ ?\n ?/g, '\n'),
        confidence: round(mean(formatted.map((w) => w.confidence))),
      });
    }
    const speakers = options.diarization ? new Set(words.map((w) => w.speaker)).size : null;
    return {
      text: utterances.map((u) => u.text).join(' '),
      duration: round(audio.durationSec),
      confidence: round(mean(words.map((w) => w.confidence))),
      speakers,
      words,
      utterances,
      generatedBy: recognized.generatedBy ?? { engine: recognizer.name, ...(recognizer.model ? { model: recognizer.model } : {}) },
    };
  };
}
