import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.js';
import type { AdaptationPatch, AdaptationState } from '../../shared/api/voice-adaptation.js';
import type { Capture, CaptureOptions } from '../audio/capture.js';
import { wavFile } from '../audio/pcm.js';

/** The server takes at most 30 s a reading; the recorder stops itself there. */
export const MAX_READING_SECONDS = 30;
/** Shorter than this is a slip of the finger, not a sentence read. */
const MIN_READING_SECONDS = 0.5;
const RATE = 16_000;

export interface VoiceState {
  /** The API's answer; undefined until read. */
  adaptation?: AdaptationState;
  /** The sentence on screen (its index in `adaptation.sentences`). */
  current: number;
  /**
   * The sentence being read into the microphone, with the seconds captured so far; `live` once the
   * microphone runs (before that, words spoken would be lost, so the page says to wait).
   */
  recording?: { sentenceId: string; seconds: number; live: boolean };
  level: number;
  /** A reading being saved, a run being started, a switch being changed or data being deleted. */
  busy: boolean;
  /** What just happened, for the polite status line. */
  said?: string;
  error?: string;
  load(): Promise<void>;
  show(index: number): void;
  record(): Promise<void>;
  stop(): Promise<void>;
  adapt(): Promise<void>;
  choose(choice: AdaptationPatch): Promise<void>;
  deleteAll(): Promise<void>;
  dismissError(): void;
}

export interface VoiceDeps {
  client(): ApiClient | undefined;
  startCapture(options: CaptureOptions): Promise<Capture>;
  /** The microphone the physician chose for dictation (reads the same voice through the same device). */
  deviceId(): string | undefined;
  /** How long to wait between reads of a running adaptation (ms). */
  pollMs?: number;
}

/** The first sentence not read yet at or after `from`, wrapping round; `from` itself when all are read. */
export function nextUnread(a: AdaptationState, from: number): number {
  const n = a.sentences.length;
  for (let k = 0; k < n; k++) {
    const i = (from + k) % n;
    if (!a.sentences[i]!.recorded) return i;
  }
  return Math.min(from, Math.max(0, n - 1));
}

/**
 * The voice enrollment (issue 27 point 9): reads the prompts and their state from the local API,
 * records one sentence at a time through the same capture as dictation (16 kHz mono, sent as a
 * WAV), starts the adaptation and reads its state again while it runs, and changes the switches.
 */
export function createVoiceStore(deps: VoiceDeps): StoreApi<VoiceState> {
  let capture: Capture | undefined;
  let chunks: Float32Array[] = [];
  let captured = 0;
  let poll: ReturnType<typeof setTimeout> | undefined;

  const fail = (prefix: string) => (err: unknown): void => store.setState({ error: `${prefix}: ${(err as Error).message}`, busy: false });
  const settle = (adaptation: AdaptationState, said?: string): void => {
    store.setState((s) => ({ adaptation, busy: false, said, current: Math.min(s.current, Math.max(0, adaptation.sentences.length - 1)) }));
    watch(adaptation);
  };
  // While a run is queued or running, read the state again until it is over.
  const watch = (a: AdaptationState): void => {
    if (poll) clearTimeout(poll);
    poll = undefined;
    if (a.status !== 'adapting') return;
    poll = setTimeout(() => {
      const client = deps.client();
      if (!client) return;
      client.voiceAdaptation().then((next) => settle(next, next.status === 'adapting' ? undefined : 'The adaptation finished.'), fail('The adaptation state could not be read'));
    }, deps.pollMs ?? 1000);
  };

  const store = createStore<VoiceState>()((set, get) => ({
    current: 0,
    level: 0,
    busy: false,
    async load() {
      const client = deps.client();
      if (!client) return;
      try {
        const adaptation = await client.voiceAdaptation();
        set({ current: nextUnread(adaptation, 0) });
        settle(adaptation);
      } catch (err) {
        fail('Your voice enrollment could not be read')(err);
      }
    },
    show(index) {
      if (!get().recording) set({ current: index, said: undefined });
    },
    async record() {
      const sentence = get().adaptation?.sentences[get().current];
      if (!sentence || get().recording || capture) return;
      chunks = [];
      captured = 0;
      set({ recording: { sentenceId: sentence.id, seconds: 0, live: false }, error: undefined, said: undefined });
      try {
        const deviceId = deps.deviceId();
        const started = await deps.startCapture({
          ...(deviceId ? { deviceId } : {}),
          onAudio: (samples) => {
            chunks.push(samples);
            captured += samples.length;
            const seconds = captured / RATE;
            set((s) => (s.recording ? { recording: { ...s.recording, seconds } } : {}));
            if (seconds >= MAX_READING_SECONDS) void get().stop();
          },
          onLevel: (level) => set({ level }),
        });
        // Stop was pressed while the microphone was still starting: nothing was read.
        if (!get().recording) return void (await started.stop());
        capture = started;
        set((s) => (s.recording ? { recording: { ...s.recording, live: true } } : {}));
      } catch (err) {
        capture = undefined;
        set({ recording: undefined, error: `The microphone could not be opened: ${(err as Error).message}` });
      }
    },
    async stop() {
      const reading = get().recording;
      const open = capture;
      if (!reading) return;
      if (!open) return void set({ recording: undefined, level: 0 });
      capture = undefined;
      await open.stop();
      set({ recording: undefined, level: 0 });
      const samples = new Float32Array(Math.min(captured, MAX_READING_SECONDS * RATE));
      let at = 0;
      for (const c of chunks) {
        const part = c.subarray(0, samples.length - at);
        samples.set(part, at);
        at += part.length;
      }
      chunks = [];
      if (samples.length < MIN_READING_SECONDS * RATE) {
        set({ error: 'That reading was too short to keep. Press Record, read the whole sentence, then Stop.' });
        return;
      }
      const client = deps.client();
      if (!client) return;
      set({ busy: true });
      try {
        const saved = await client.recordVoiceSentence(reading.sentenceId, new Blob([wavFile(samples)], { type: 'audio/wav' }));
        const adaptation = await client.voiceAdaptation();
        const index = adaptation.sentences.findIndex((s) => s.id === reading.sentenceId);
        // On to the next sentence not read yet, so Record, Stop, Record… reads them all.
        set({ current: nextUnread(adaptation, index + 1) });
        settle(adaptation, `Sentence ${index + 1} saved (${saved.durationSeconds.toFixed(1)} s).`);
      } catch (err) {
        fail('The reading was not saved')(err);
      }
    },
    async adapt() {
      const client = deps.client();
      if (!client || get().busy) return;
      set({ busy: true, error: undefined, said: undefined });
      await client.adaptVoice().then((a) => settle(a, 'Adapting to your voice…'), fail('The adaptation could not start'));
    },
    async choose(choice) {
      const client = deps.client();
      if (!client) return;
      set({ busy: true, error: undefined, said: undefined });
      await client.setVoiceAdaptation(choice).then((a) => settle(a), fail('The change was not saved'));
    },
    async deleteAll() {
      const client = deps.client();
      if (!client) return;
      set({ busy: true, error: undefined, said: undefined });
      try {
        await client.deleteVoiceData();
        const adaptation = await client.voiceAdaptation();
        set({ current: 0 });
        settle(adaptation, 'Your voice data was deleted: the readings, any corrected dictation kept for learning, and the adapted model.');
      } catch (err) {
        fail('Your voice data was not deleted')(err);
      }
    },
    dismissError() {
      set({ error: undefined });
    },
  }));
  return store;
}
