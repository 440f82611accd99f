/**
 * Issue 27 point 6: a two-voice recording comes back as two speakers, and no word or utterance
 * time lies past the end of the audio. The walk-through saw one speaker and utterances ending at
 * 58 s in a 42 s recording; the late times come from the batch recogniser (pocketsphinx decoding
 * an utterance in 1 s calls stamps its words seconds late), so the pipeline keeps every time
 * inside the recording whatever the recogniser says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../../main/engines/audio/index.js';
import { createClusteringDiarizer } from '../../main/engines/diarization/index.js';
import { createRobustVad, createSileroVad } from '../../main/engines/vad/index.js';
import { createTranscriptionPipeline } from '../../main/services/transcriptions/pipeline.js';
import type { RecognizedWord, SpeechRecognizer } from '../../main/services/transcriptions/ports.js';
import type { SpeakerTurn } from '../../main/services/transcriptions/ports.js';
import { twoVoiceRecording, VISIT_LINES } from '../../scripts/two-voice-recording.js';
import { startServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

/** The male and female voices of the end-to-end encounter test (test/e2e/browser-workflows.test.ts). */
const VOICES: [string, string] = ['en-us+m3', 'en-us+f4'];

let dir: string;
let recording: { path: string; durationSec: number; truth: SpeakerTurn[] };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'clindoc-two-voices-'));
  recording = twoVoiceRecording(dir, 'visit', VOICES);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A recogniser that hears every word of the visit, spread over its line's true time, but stamps
 * the last two lines 3.7 s late, as pocketsphinx's chunked batch decoding did to a 6 s utterance.
 */
function lateStampingRecognizer(): SpeechRecognizer {
  return {
    name: 'late-stamps', sampleRate: 16000,
    async transcribe() {
      const words: RecognizedWord[] = recording.truth.flatMap((turn, i) => {
        const said = VISIT_LINES[i]!.toLowerCase().replace(/[^a-z ]/g, '').split(' ');
        const late = i >= recording.truth.length - 2 ? 3.7 : 0;
        const step = (turn.end - turn.start) / said.length;
        return said.map((word, k) => ({ word, start: turn.start + late + k * step, end: turn.start + late + (k + 1) * step, confidence: 0.9 }));
      });
      return { text: words.map((w) => w.word).join(' '), words, confidence: 0.9 };
    },
  };
}

const wordsPastTheEnd = (r: { words: Array<{ start: number; end: number }>; utterances: Array<{ start: number; end: number }> }, duration: number): number =>
  [...r.words, ...r.utterances].filter((x) => x.start < 0 || x.end > duration || x.start > x.end).length;

describe('a two-voice recording', () => {
  it('keeps every time inside the audio and tells the two voices apart (pipeline, recogniser stamping late)', async () => {
    const pipeline = createTranscriptionPipeline({
      decoder: createFfmpegDecoder(), recognizer: lateStampingRecognizer, vad: () => createRobustVad({ model: createSileroVad() }),
      diarizer: createClusteringDiarizer(),
    });
    const result = await pipeline(recording.path, { language: 'en', dictation: false, diarization: true });
    expect(result.duration).toBeCloseTo(recording.durationSec, 1);
    expect(result.words.length).toBeGreaterThan(60);
    expect(wordsPastTheEnd(result, result.duration)).toBe(0);
    expect(result.speakers).toBe(2);
    // The doctor's first line and the patient's answer are told apart.
    const speakerOfLine = (i: number): number | null => result.words.find((w) => w.start >= recording.truth[i]!.start)!.speaker;
    expect(speakerOfLine(0)).not.toBe(speakerOfLine(1));
  }, 120_000);

  describe('through the batch API, as the encounter recorder uploads it', () => {
    let s: TestServer;
    beforeAll(async () => { s = await startServer(); });
    afterAll(() => s?.close());

    it('comes back as two speakers with every time inside the audio (real recogniser)', async () => {
      const form = new FormData();
      form.append('audio', new Blob([readFileSync(recording.path)], { type: 'audio/wav' }), 'encounter.wav');
      // What renderer/state/note-store.ts sends: the visit's language and diarization on.
      form.append('language', 'en');
      form.append('diarization', 'true');
      const { 'content-type': _omit, ...headers } = s.headers();
      const accepted = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers, body: form });
      expect(accepted.status).toBe(202);
      const { id } = await accepted.json();
      const record = await waitFor(async () => {
        const body = await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).json();
        return body.status === 'completed' || body.status === 'failed' ? body : undefined;
      }, 590_000, 200);
      expect(record.status).toBe('completed');
      expect(record.duration).toBeCloseTo(recording.durationSec, 1);
      expect(record.words.length).toBeGreaterThan(30);
      expect(wordsPastTheEnd(record, record.duration)).toBe(0);
      expect(record.speakers).toBe(2);
    }, 600_000);
  });
});
