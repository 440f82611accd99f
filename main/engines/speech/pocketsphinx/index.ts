/** The embedded pocketsphinx engine (Debian's libpocketsphinx3 through koffi). */
export {
  createPocketsphinxRecognizer, clinicalArtefacts, clinicalModelStatus, DEFAULT_BATCH_SEARCH,
  type BatchSearch, type ClinicalModelStatus, type PocketsphinxOptions, type RecognizerScheduling,
} from './recognizer.js';
export { planUtterances, type UtterancePlan } from './segmenter.js';
