/** On-device ONNX speech recognisers (onnxruntime-node) over an operator-supplied model folder. */
export { createOnnxCtcRecognizer, splitAtQuiet, type OnnxCtcOptions } from './ctc-recognizer.js';
export { decodeCtcGreedy } from './ctc-decode.js';
export { loadVocabulary, parseTokensTxt, parseVocabJson, type CtcVocabulary } from './vocabulary.js';
export type { ModelFolderConfig } from './model-folder.js';
export { createOnnxWhisperRecognizer, type OnnxWhisperOptions } from './whisper-recognizer.js';
