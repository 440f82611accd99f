/**
 * Speaker diarization decisions: who spoke when. With several channels that carry different
 * signals, speaker n is channel n; otherwise (one channel, or a mono recording saved as stereo)
 * the SpeakerDiarizer port tells the voices apart in the speech segments the
 * VoiceActivityDetector port found. Then each recognised word gets the speaker of its turn.
 * The signal processing lives in `main/engines/diarization/`; the error rate that scores it in
 * `scripts/diarization-error-rate.ts`.
 */
import type { DecodedAudio, DiarizationOptions, RecognizedWord, SpeakerDiarizer, SpeakerTurn, SpeechSegment, VoiceActivityDetector } from './ports.js';

/** Multichannel diarization: speaker n is channel n, whose VAD segments are `segmentsPerChannel[n]`; turns may overlap. */
export function diarizeChannels(segmentsPerChannel: SpeechSegment[][]): SpeakerTurn[] {
  return segmentsPerChannel
    .flatMap((segs, speaker) => segs.map((s) => ({ start: s.start, end: s.end, speaker })))
    .sort((a, b) => a.start - b.start || a.speaker - b.speaker);
}

/** True when every channel carries (nearly) the same signal: a mono recording saved as stereo. */
function channelsAlike(channels: Int16Array[]): boolean {
  const first = channels[0]!;
  let [energy, diff] = [0, 0];
  for (const ch of channels.slice(1)) {
    for (let i = 0; i < first.length; i += 4) {
      energy += first[i]! * first[i]!;
      diff += (first[i]! - (ch[i] ?? 0)) ** 2;
    }
  }
  return diff <= energy * 0.01;
}

/**
 * Diarizes decoded audio, asking `vad` for speech segments: a speaker per channel when the audio
 * has several channels that differ, otherwise `diarizer` on the (first) channel. Channels that
 * carry the same signal count as mono, so a stereo copy of one microphone is not two speakers.
 */
export async function diarize(
  audio: DecodedAudio,
  deps: { vad: VoiceActivityDetector; diarizer: SpeakerDiarizer },
  options: DiarizationOptions = {},
): Promise<SpeakerTurn[]> {
  const { channels, sampleRate } = audio;
  if (channels.length === 0) return [];
  if (channels.length > 1 && !channelsAlike(channels)) {
    const perChannel = await Promise.all(channels.map((ch) => deps.vad.segments(ch, sampleRate)));
    return diarizeChannels(perChannel);
  }
  return deps.diarizer.diarize(channels[0]!, sampleRate, await deps.vad.segments(channels[0]!, sampleRate), options);
}

/**
 * Gives each word the speaker whose turn overlaps it most; a word in no turn takes the nearest
 * turn's speaker. With no turns every word is speaker 0.
 */
export function assignSpeakers<W extends RecognizedWord>(words: W[], turns: SpeakerTurn[]): Array<W & { speaker: number }> {
  return words.map((w) => {
    let best: SpeakerTurn | undefined;
    let bestScore = -Infinity;
    for (const t of turns) {
      const overlap = Math.min(w.end, t.end) - Math.max(w.start, t.start);
      // Negative overlap is the gap to the turn, so the nearest turn wins when none overlaps.
      if (overlap > bestScore) [bestScore, best] = [overlap, t];
    }
    return { ...w, speaker: best?.speaker ?? 0 };
  });
}
