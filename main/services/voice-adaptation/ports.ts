/**
 * Ports of voice adaptation (issue 27 point 9). Implementations: sphinxtrain (main/engines/speech/
 * pocketsphinx/adaptation/), the encrypted blob store, ffmpeg, the pocketsphinx recogniser; the
 * composition (main/compose-voice-adaptation.ts) wires them. Recordings, texts and models are the
 * physician's data: never logged, never in an error message.
 */

/** One recording and the words spoken in it, for adaptation. */
export interface AdaptationUtterance {
  /** 16 kHz mono 16-bit samples. */
  pcm: Int16Array;
  text: string;
}

/** Adapts the embedded recogniser's acoustic model to one speaker. */
export interface VoiceAdapter {
  /**
   * Packed adapted models, best guess first (MLLR then MAP, and MLLR alone), and how many utterances were
   * aligned and used. Throws without patient text.
   */
  adapt(utterances: AdaptationUtterance[]): Promise<{ models: Array<{ method: 'mllr+map' | 'mllr'; model: Buffer }>; used: number }>;
}

/** The account's encrypted storage for recordings and models (the blob store, shared by a clinic's instances). */
export interface AdaptationBlobs {
  /** Stores an upload as it comes (encrypted); rejects past `maxBytes`. */
  writeStream(source: NodeJS.ReadableStream, maxBytes: number): Promise<string>;
  write(bytes: Buffer): Promise<string>;
  read(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  /** Decodes a stored recording (any container ffmpeg reads) to 16 kHz mono PCM; 400/415 for undecodable audio. */
  decode(key: string): Promise<{ pcm: Int16Array; durationSec: number }>;
}

/** A recogniser on the base model (`model` null) or a packed adapted one, for the before/after measure on held-out recordings. */
export type MeasureRecognizer = (model: Buffer | null) => Promise<{ transcribe(pcm: Int16Array): Promise<string>; close(): Promise<void> }>;

/** The physician's own dictation with its final (edited) text, where both exist. */
export type CorrectedDictation = (accountId: string) => Promise<Array<{ audioKey: string; text: string }>>;
