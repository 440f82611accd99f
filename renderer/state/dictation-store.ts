import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.js';
import type { MacroDefinition, StreamMessage } from '../api/types.js';
import type { Capture, CaptureOptions, Microphone } from '../audio/capture.js';
import { createChunkSender } from '../audio/pcm.js';
import type { StreamClient, StreamClientDeps, StreamState } from '../audio/stream-client.js';
import { parseUtterance } from '../../shared/dictation/voice-commands.js';
import * as docs from './dictation-doc.js';
import type { DictationDoc, InsertionMode } from './dictation-doc.js';

export type DictationStatus = 'idle' | 'starting' | 'listening' | 'reconnecting' | 'stopping';

export interface DictationState {
  status: DictationStatus;
  /** The dictated text as an editable document (renderer/state/dictation-doc.ts). */
  doc: DictationDoc;
  /** The partial result of the utterance in progress, replaced by its final text. */
  partial: string;
  errors: { id: number; message: string }[];
  level: number;
  microphones: Microphone[];
  deviceId: string;
  /** Dictation-style formatting (punctuation, capitals); on by default. */
  formatting: boolean;
  language: string;
  /** Where new finals go: the end of the text, or the editor's cursor. */
  insertion: InsertionMode;
  /** The browser's echo cancellation, noise suppression and gain control on the microphone. */
  micProcessing: boolean;
  macros: MacroDefinition[];
  /** Audio end of the last final's last word to its text in the store, in ms. */
  lastLatencyMs?: number;
  /**
   * The last final's words, for screen readers (a polite live region): `count` changes with each
   * final so the same words said twice are announced twice.
   */
  announcement: { count: number; text: string };
  start(): Promise<void>;
  stop(): Promise<void>;
  toggle(): Promise<void>;
  setFormatting(on: boolean): void;
  setLanguage(language: string): void;
  selectMicrophone(deviceId: string): void;
  refreshMicrophones(): Promise<void>;
  loadMacros(): Promise<void>;
  setInsertion(mode: InsertionMode): void;
  setMicProcessing(on: boolean): void;
  /** Shows the spoken words instead of the expansion (or the expansion again). */
  toggleExpansion(pieceId: number): void;
  /** The editor's new text after the physician typed, with its selection; marks outside the edit stay. */
  edit(text: string, selection: { start: number; end: number }): void;
  /** The editor's caret or selection moved (where finals go in 'cursor' mode). */
  select(selection: { start: number; end: number }): void;
  /** Replaces the dictation with text (restored or pasted; expansion marks are dropped). */
  replaceText(text: string): void;
  clear(): void;
  dismissError(id: number): void;
  text(): string;
}

export interface DictationDeps {
  client(): ApiClient | undefined;
  startCapture(options: CaptureOptions): Promise<Capture>;
  listMicrophones(): Promise<Microphone[]>;
  createStream(deps: StreamClientDeps): StreamClient;
  /** Monotonic milliseconds (performance.now in the browser). */
  now(): number;
}

/**
 * Live dictation: microphone -> 16 kHz linear16 -> streaming socket -> partial and final text,
 * with the user's macros expanded (POST /v1/macros/detect) as each final arrives.
 */
export function createDictationStore(deps: DictationDeps): StoreApi<DictationState> {
  let ids = 0;
  const nextId = (): number => ++ids;
  let capture: Capture | undefined;
  let stream: StreamClient | undefined;
  const chunks = createChunkSender((bytes, base64) => stream?.sendAudio(bytes, base64));
  let captured = 0;
  let originMs = Number.POSITIVE_INFINITY; // wall time of sample 0, best estimate
  let lastSpeechSample = 0;
  let noiseFloorDb = -60;

  const addError = (message: string): void =>
    store.setState((s) => ({ errors: [...s.errors.slice(-4), { id: nextId(), message }] }));

  /**
   * Audio end of the final's last word to now. Word times are used when they fall inside the
   * message's own audio window; otherwise (an engine whose word clock is not per session) the
   * end of the last speech the client itself heard (energy above the noise floor) stands in.
   */
  const finalLatency = (m: Extract<StreamMessage, { type: 'transcript' }>, lastEnd: number | undefined, baseSample: number): number | undefined => {
    if (!Number.isFinite(originMs)) return undefined;
    const consistent = lastEnd !== undefined && lastEnd >= m.audio_start - 0.05 && lastEnd <= m.audio_end + 0.05;
    // Without usable word times, a final that arrives while the speaker is still talking has no
    // "end of speech" to measure from.
    if (!consistent && captured - lastSpeechSample < 1600) return undefined;
    const endSample = consistent ? baseSample + lastEnd! * 16_000 : lastSpeechSample;
    if (endSample <= 0) return undefined;
    return Math.max(0, deps.now() - (originMs + (endSample / 16_000) * 1000));
  };

  const trackSpeech = (samples: Float32Array): void => {
    let sum = 0;
    for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
    const db = 10 * Math.log10(sum / Math.max(1, samples.length) + 1e-12);
    noiseFloorDb = Math.min(db, noiseFloorDb + 0.05); // follows the floor down fast, up slowly
    if (db > Math.max(-50, noiseFloorDb + 12)) lastSpeechSample = captured;
  };

  const onAudio = (samples: Float32Array): void => {
    captured += samples.length;
    trackSpeech(samples);
    originMs = Math.min(originMs, deps.now() - (captured / 16_000) * 1000);
    chunks.push(samples);
  };

  const expand = async (utterance: number): Promise<void> => {
    const { macros, doc } = store.getState();
    const client = deps.client();
    const text = doc.pending[utterance]?.text;
    const done = (detections: Parameters<typeof docs.expandUtterance>[2] = []): void =>
      store.setState((s) => ({ doc: docs.expandUtterance(s.doc, utterance, detections, s.macros) }));
    if (!client || macros.length === 0 || !text) return done();
    // The text before this utterance goes along as context, so a negation said just before a
    // pause ("this was not … a normal cardiac exam") still keeps the macro from firing; only
    // detections inside this final are applied.
    const start = docs.layout(doc).find((l) => l.piece.utterance === utterance)?.start ?? 0;
    const before = Array.from(docs.docText(doc).slice(0, start).trimEnd()).slice(-200).join('');
    const offset = before ? Array.from(before).length + 1 : 0;
    const mine = <T extends { text_span: { start_char: number; end_char: number; text: string } }>(items: T[]): T[] =>
      items.filter((d) => d.text_span.start_char >= offset).map((d) => ({ ...d, text_span: { ...d.text_span, start_char: d.text_span.start_char - offset, end_char: d.text_span.end_char - offset } }));
    try {
      const result = await client.detectMacros(before ? `${before} ${text}` : text, macros);
      done([...mine(result.detections), ...mine(result.skipped ?? [])]);
    } catch (err) {
      done();
      addError(`Macros could not be expanded: ${(err as Error).message}`);
    }
  };

  const onMessage = (m: StreamMessage, baseSample: number): void => {
    if (m.type !== 'transcript') return;
    if (!m.is_final) {
      store.setState({ partial: m.text });
      return;
    }
    const text = m.text.trim();
    const lastEnd = m.words.length > 0 ? m.words[m.words.length - 1]!.end : undefined;
    const latency = finalLatency(m, lastEnd, baseSample);
    if (!text) {
      store.setState({ partial: '' });
      return;
    }
    const { formatting, insertion: mode, macros } = store.getState();
    const timing = latency !== undefined ? { lastLatencyMs: latency } : {};
    // Voice commands and automatic full stops come with dictation formatting (docs/desktop.md).
    const parsed = formatting ? parseUtterance(text, macros) : { kind: 'text' as const, text };
    if (parsed.kind === 'command') {
      // Undoing an inserted macro shows the words said after "insert" as a dictated sentence would read.
      const phrase = parsed.command.kind === 'insert-macro' ? text.replace(/^\W*insert\s+/i, '').replace(/[.?!]+$/, '') : '';
      const spoken = phrase ? `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.` : undefined;
      store.setState((s) => ({ doc: docs.applyCommand(s.doc, parsed.command, { mode, macros, ...(spoken ? { spoken } : {}) }), partial: '', ...timing }));
      return;
    }
    const inserted = docs.insertUtterance(store.getState().doc, parsed.text, { mode, punctuate: formatting, capitalise: formatting, words: m.words });
    store.setState((s) => ({ doc: inserted.doc, partial: '', announcement: { count: s.announcement.count + 1, text: parsed.text }, ...timing }));
    void expand(inserted.utterance);
  };

  const onState = (state: StreamState): void => {
    const status = store.getState().status;
    if (status === 'stopping' || status === 'idle') return;
    if (state === 'open') store.setState({ status: 'listening' });
    else if (state === 'reconnecting') store.setState({ status: 'reconnecting' });
  };

  const store = createStore<DictationState>()((set, get) => ({
    status: 'idle',
    doc: docs.emptyDoc(),
    partial: '',
    announcement: { count: 0, text: '' },
    errors: [],
    level: 0,
    microphones: [],
    deviceId: '',
    formatting: true,
    language: 'en',
    insertion: 'end',
    micProcessing: false,
    macros: [],
    async start() {
      if (get().status !== 'idle') return;
      const client = deps.client();
      if (!client) {
        addError('Connect to the local API in Settings first.');
        return;
      }
      set({ status: 'starting', partial: '' });
      chunks.clear();
      captured = 0;
      originMs = Number.POSITIVE_INFINITY;
      lastSpeechSample = 0;
      noiseFloorDb = -60;
      const { formatting, language } = get();
      stream = deps.createStream({
        connectUrl: () => client.streamUrl({ language, dictation: formatting, sampleRate: 16_000 }),
        onMessage,
        onState,
        onError: addError,
      });
      try {
        capture = await deps.startCapture({
          ...(get().deviceId ? { deviceId: get().deviceId } : {}), processing: get().micProcessing, onAudio, onLevel: (level) => set({ level }),
        });
      } catch (err) {
        stream = undefined;
        set({ status: 'idle' });
        const name = (err as { name?: string }).name;
        addError(name === 'NotAllowedError' ? 'Microphone access was refused. Allow it in the browser or system settings.' : `The microphone could not be opened: ${(err as Error).message}`);
        return;
      }
      stream.start();
      void get().refreshMicrophones();
    },
    async stop() {
      const status = get().status;
      if (status === 'idle' || status === 'stopping') return;
      set({ status: 'stopping' });
      const c = capture;
      capture = undefined;
      await c?.stop().catch(() => undefined);
      chunks.flush();
      await stream?.stop();
      stream = undefined;
      set({ status: 'idle', level: 0, partial: '' });
    },
    async toggle() {
      const status = get().status;
      if (status === 'idle') await get().start();
      else if (status !== 'stopping') await get().stop();
    },
    setFormatting: (formatting) => set({ formatting }),
    setLanguage: (language) => set({ language }),
    setInsertion: (insertion) => set({ insertion }),
    setMicProcessing: (micProcessing) => set({ micProcessing }),
    selectMicrophone: (deviceId) => set({ deviceId }),
    async refreshMicrophones() {
      try {
        set({ microphones: await deps.listMicrophones() });
      } catch {
        set({ microphones: [] });
      }
    },
    async loadMacros() {
      const client = deps.client();
      if (!client) return;
      try {
        const all: MacroDefinition[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listMacros(cursor);
          all.push(...page.items);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        set({ macros: all });
      } catch (err) {
        addError(`Your macros could not be loaded: ${(err as Error).message}`);
      }
    },
    toggleExpansion: (pieceId) => set((s) => ({ doc: docs.toggleExpansion(s.doc, pieceId) })),
    edit: (text, selection) => set((s) => ({ doc: docs.editText(s.doc, text, selection) })),
    select: (selection) => set((s) => ({ doc: docs.select(s.doc, selection) })),
    replaceText: (text) => set({ doc: docs.docFromText(text.trim() ? text : '') }),
    clear: () => set({ doc: docs.emptyDoc(), partial: '', lastLatencyMs: undefined }),
    dismissError: (id) => set((s) => ({ errors: s.errors.filter((e) => e.id !== id) })),
    text: () => docs.docText(get().doc),
  }));
  return store;
}
