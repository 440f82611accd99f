/**
 * Ports for speech: recognisers, audio decoding, voice activity detection, live endpointing and
 * diarization. Implementations live in `main/engines/` (pocketsphinx through koffi, ONNX models,
 * OpenAI-compatible servers, ffmpeg, Silero VAD, clustering diarizer). Audio and recognised text
 * are patient data: never log them.
 */

/** One recognised word; times are seconds from the start of the audio handed to the engine. */
export interface RecognizedWord {
  word: string;
  start: number;
  end: number;
  /** 0 to 1. */
  confidence: number;
}

export interface RecognitionResult {
  text: string;
  words: RecognizedWord[];
  /** Mean word confidence, 0 to 1 (0 when there are no words). */
  confidence: number;
  /** Set when another engine than the one asked recognised it (the chosen one failed: fallback.ts). */
  generatedBy?: { engine: string; model?: string; fallbackFrom?: { engine: string; model?: string; reason: string } };
}

export interface RecognitionOptions {
  /** Language of the audio (`en`, `en-US`, `es`...). Engines reject languages they cannot do. */
  language: string;
  /** The caller gave up: an engine that calls out to a server stops waiting and rejects with its reason. */
  signal?: AbortSignal;
}

/**
 * An incremental recogniser for one live session. Audio is 16 kHz mono signed 16-bit PCM.
 * Utterance boundaries are decided by the caller (voice activity endpointing, Finalize).
 */
export interface SpeechStream {
  accept(pcm: Int16Array): void;
  /** Hypothesis for the current utterance so far, or null when nothing is recognised yet. */
  partial(): RecognitionResult | null;
  /** Ends the current utterance and returns its final result; the stream accepts the next one. */
  finalizeUtterance(): RecognitionResult;
  /**
   * Releases native resources; safe to call twice. With async work still running, the release
   * happens once it has settled.
   */
  close(): void;
  /**
   * Optional off-thread forms of `accept` and `finalizeUtterance` (engines whose work is native
   * CPU time offer them, so sessions run in parallel and the event loop stays free). A stream runs
   * its calls one at a time in call order; while one is pending, the synchronous methods throw.
   */
  acceptAsync?(pcm: Int16Array): Promise<void>;
  finalizeUtteranceAsync?(): Promise<RecognitionResult>;
}

export interface SpeechRecognizer {
  /** Stable engine name (`pocketsphinx`, `onnx-ctc`, `onnx-whisper`, `openai-compatible`). */
  readonly name: string;
  /** The model it runs (an installed model's id, a folder or a server's model name), recorded with each transcript. */
  readonly model?: string;
  /** Sample rate of the PCM the engine expects (16000 for all current engines). */
  readonly sampleRate: number;
  /** Recognises a whole clip of mono PCM at `sampleRate`. */
  transcribe(pcm: Int16Array, options: RecognitionOptions): Promise<RecognitionResult>;
  /** Streaming recognition, where the engine supports it. */
  createStream?(options: RecognitionOptions): SpeechStream;
  /**
   * Loads the model now instead of on first use, so a broken model is found when it is chosen,
   * not halfway through a patient's recording; throws why it cannot load.
   */
  load?(): Promise<void>;
  close?(): Promise<void>;
}

export interface DecodedAudio {
  sampleRate: number;
  /** One Int16Array per channel (a single entry when downmixed to mono). */
  channels: Int16Array[];
  durationSec: number;
}

export interface AudioDecoder {
  /**
   * Decodes any supported container/codec to 16-bit PCM at `sampleRate` (default 16000).
   * With `keepChannels` each channel is returned separately, otherwise one mono downmix.
   * Throws a DomainError ('unsupported_media_type' or 'invalid_request') for undecodable input.
   */
  decodeFile(path: string, options?: { sampleRate?: number; keepChannels?: boolean }): Promise<DecodedAudio>;
}

/** A stretch of speech, seconds from the start of the audio. */
export interface SpeechSegment {
  start: number;
  end: number;
}

export interface VoiceActivityDetector {
  /** Speech segments of a whole clip (16 kHz mono PCM). */
  segments(pcm: Int16Array, sampleRate: number): Promise<SpeechSegment[]>;
}

/** Where a live utterance starts or ends. */
export interface EndpointEvent {
  type: 'speech_start' | 'speech_end';
  /** Seconds from the start of the audio pushed into this endpointer. */
  time: number;
}

/** Follows one live session's audio (16 kHz mono PCM) and says where utterances start and end. */
export interface Endpointer {
  /** Feeds the next chunk; resolves with the events it caused, in order. */
  push(pcm: Int16Array): Promise<EndpointEvent[]>;
  /** Whether an utterance is open. */
  readonly inSpeech: boolean;
}

export interface EndpointingOptions {
  /** Silence that ends an utterance, ms: most of a final's latency. */
  endSilenceMs: number;
  /** Speech needed before an utterance counts as started, ms. */
  minSpeechMs: number;
}

/** Makes a fresh endpointer (its own state) for one live session. */
export type EndpointerFactory = (options: EndpointingOptions) => Endpointer;

/** A voice activity detector that also endpoints live audio with its own model (Silero). */
export interface EndpointingDetector extends VoiceActivityDetector {
  createEndpointer: EndpointerFactory;
}

/** A stretch of speech by one speaker, seconds from the start of the audio. */
export interface SpeakerTurn {
  start: number;
  end: number;
  speaker: number;
}

export interface DiarizationOptions {
  /** Exact number of speakers when the caller knows it (a two-person encounter). */
  numSpeakers?: number;
  /** Upper bound when the count is estimated. Default 4. */
  maxSpeakers?: number;
}

/** Tells voices apart in one microphone's recording (several microphones are told apart by channel). */
export interface SpeakerDiarizer {
  /**
   * Speaker turns of mono PCM, found inside `segments` (what a VoiceActivityDetector heard).
   * Speakers are numbered 0, 1... by first appearance; touching turns of one speaker are joined.
   */
  diarize(pcm: Int16Array, sampleRate: number, segments: SpeechSegment[], options?: DiarizationOptions): Promise<SpeakerTurn[]>;
}
