/**
 * A transcript's share of unsure words (issue 27), as the interface knows it: from the dictation
 * (the unsure marks still there, so a word the physician corrected counts as sure) or from a
 * recording's transcription (its word confidences). Typed or pasted text has none (null).
 */
import { countWords, unsureShare } from '../../shared/dictation/unsure-share.js';
import type { TranscriptionRecord } from '../api/types.js';
import { docText, LOW_CONFIDENCE, unsureWords, type DictationDoc } from './dictation-doc.js';

/** The dictated text's share: unsure marks left over its words. */
export function dictationUnsureShare(doc: DictationDoc): number | null {
  return unsureShare(unsureWords(doc).length, countWords(docText(doc)));
}

/** A transcription's share: its words below the confidence the Dictation page marks. */
export function recordUnsureShare(record: Pick<TranscriptionRecord, 'words'>): number | null {
  return unsureShare(record.words.filter((w) => w.confidence < LOW_CONFIDENCE).length, record.words.length);
}
