/**
 * What the on-device model recognisers (onnx-ctc, onnx-whisper) share around their own decoding:
 * a language the model does not know is a 400 before anything loads, the model loads on first use
 * (or on `load()`), and `close()` frees it.
 */
import { invalidRequest } from '../../../services/errors.js';
import type { RecognitionOptions, RecognitionResult, SpeechRecognizer } from '../../../services/transcriptions/ports.js';
import type { LazyModel } from '../../models/lazy-model.js';
import { supportsLanguage } from './model-folder.js';

export interface ModelRecognizerParts<M> {
  name: string;
  sampleRate: number;
  /** Languages the model recognises (`en`, `de`...). */
  languages: string[];
  model: LazyModel<M>;
  /** Recognises a whole clip with the loaded model; the language is already checked. */
  recognise(model: M, pcm: Int16Array, options: RecognitionOptions): Promise<RecognitionResult>;
}

export function modelRecognizer<M>(parts: ModelRecognizerParts<M>): SpeechRecognizer {
  const { name, languages, model } = parts;
  return {
    name,
    sampleRate: parts.sampleRate,
    async transcribe(pcm, opts) {
      if (!supportsLanguage(languages, opts.language)) {
        throw invalidRequest(`language: the ${name} model does not recognise '${opts.language}'`);
      }
      return parts.recognise(await model.get(), pcm, opts);
    },
    async load() {
      await model.get();
    },
    close: () => model.release(),
  };
}
