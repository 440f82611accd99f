/**
 * Live dictation with an engine that only recognises whole clips (Whisper, CTC models, servers):
 * the session's audio is kept per utterance and recognised when the utterance ends. There are no
 * partial words before the final (re-running a model on every chunk would not keep up on two
 * cores); the final arrives once the recogniser has read the utterance.
 */
import { joinSamples } from '../../../shared/audio/join-samples.js';
import type { RecognitionOptions, RecognitionResult, SpeechRecognizer, SpeechStream } from '../transcriptions/ports.js';

/** Longest utterance kept (the session cuts utterances well before this; a guard against runaway memory). */
const MAX_SECONDS = 120;

export function createUtteranceStream(recognizer: Pick<SpeechRecognizer, 'transcribe' | 'sampleRate'>, options: RecognitionOptions): SpeechStream {
  let chunks: Int16Array[] = [];
  let samples = 0;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const limit = MAX_SECONDS * recognizer.sampleRate;

  const take = (): Int16Array => {
    const pcm = joinSamples(new Int16Array(samples), chunks);
    chunks = [];
    samples = 0;
    return pcm;
  };
  const accept = (pcm: Int16Array): void => {
    if (closed || samples + pcm.length > limit) return;
    chunks.push(pcm.slice());
    samples += pcm.length;
  };
  const empty: RecognitionResult = { text: '', words: [], confidence: 0 };

  return {
    accept,
    partial: () => null,
    finalizeUtterance() {
      throw new Error('this engine finishes utterances asynchronously (finalizeUtteranceAsync)');
    },
    acceptAsync: async (pcm) => accept(pcm),
    finalizeUtteranceAsync() {
      const pcm = take();
      // One recognition at a time, in order, as the SpeechStream contract asks.
      const run = queue.then(() => (pcm.length && !closed ? recognizer.transcribe(pcm, options) : empty));
      queue = run.catch(() => undefined);
      return run;
    },
    close() {
      closed = true;
      chunks = [];
      samples = 0;
    },
  };
}
