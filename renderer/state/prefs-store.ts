import { createStore, type StoreApi } from 'zustand/vanilla';
import { NOTE_LANGUAGES, type NoteLanguage } from '../../shared/languages.js';

/** Speech engines a transcription may ask for (main/config.ts ASR engines); '' is the server default. */
export const SPEECH_ENGINES = ['', 'pocketsphinx', 'onnx-ctc', 'onnx-whisper', 'openai-compatible'] as const;

export interface Prefs {
  language: NoteLanguage;
  /** Engine for encounter uploads; '' uses the engine the local API was started with. */
  speechEngine: string;
  /** Dictation formatting on by default. */
  formatting: boolean;
  /** The physician's own name, offered when signing a note (not patient data). */
  signerName: string;
  /** Where new dictated text goes: the end of the text (default) or the cursor. */
  insertion: 'end' | 'cursor';
  /**
   * The browser's echo cancellation, noise suppression and automatic gain on the microphone. Off by
   * default: they are made for calls, and clip and colour dictated speech (see eval:wer --capture).
   */
  micProcessing: boolean;
}

export interface PrefsState extends Prefs {
  update(patch: Partial<Prefs>): void;
}

const KEY = 'clindoc.prefs';

/** The physician's preferences, kept in localStorage (no patient data). */
export function createPrefsStore(storage?: Pick<Storage, 'getItem' | 'setItem'>): StoreApi<PrefsState> {
  let saved: Partial<Prefs> = {};
  try {
    saved = JSON.parse(storage?.getItem(KEY) ?? '{}') as Partial<Prefs>;
  } catch {
    saved = {};
  }
  const initial: Prefs = {
    language: NOTE_LANGUAGES.includes(saved.language as NoteLanguage) ? (saved.language as NoteLanguage) : 'en',
    speechEngine: typeof saved.speechEngine === 'string' && (SPEECH_ENGINES as readonly string[]).includes(saved.speechEngine) ? saved.speechEngine : '',
    formatting: saved.formatting !== false,
    signerName: typeof saved.signerName === 'string' ? saved.signerName.slice(0, 200) : '',
    insertion: saved.insertion === 'cursor' ? 'cursor' : 'end',
    micProcessing: saved.micProcessing === true,
  };
  const store = createStore<PrefsState>()((set, get) => ({
    ...initial,
    update(patch) {
      set(patch);
      const { language, speechEngine, formatting, signerName, insertion, micProcessing } = get();
      storage?.setItem(KEY, JSON.stringify({ language, speechEngine, formatting, signerName, insertion, micProcessing }));
    },
  }));
  return store;
}
