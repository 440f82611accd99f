/** The embedded pocketsphinx engine (Debian's libpocketsphinx3 through koffi). */
export { createPocketsphinxRecognizer, clinicalArtefacts, type PocketsphinxOptions } from './recognizer.js';
export { planUtterances, type UtterancePlan } from './segmenter.js';
