/** The embedded pocketsphinx engine (Debian's libpocketsphinx3 through koffi). */
export { createPocketsphinxRecognizer, clinicalArtefacts, clinicalModelStatus, type ClinicalModelStatus, type PocketsphinxOptions } from './recognizer.js';
export { planUtterances, type UtterancePlan } from './segmenter.js';
