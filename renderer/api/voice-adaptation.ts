/**
 * The account's voice adaptation as the local API answers it (issue 27 point 9; the contract both
 * sides build against is `GET /v1/speech/adaptation`). Only the embedded recogniser is adapted.
 */
export interface AdaptationState {
  status: 'not_enrolled' | 'recording' | 'adapting' | 'ready' | 'failed';
  /** The adapted model answers this account's live and batch recognition. */
  enabled: boolean;
  /** Consent: the physician's own corrected dictation joins the adaptation set. */
  useCorrectedDictation: boolean;
  /** The enrollment prompts (about 20), each with whether it was read. */
  sentences: EnrollmentSentence[];
  /** Readings needed before an adaptation can run. */
  minimumRecordings: number;
  /** ISO 8601 UTC. */
  adaptedAt?: string;
  recordingsUsed?: number;
  /** Word error rates 0..1 on the account's own held-out enrollment sentences (not used for adapting). */
  measured?: { heldOutSentences: number; werBefore: number; werAfter: number };
  /** Why the last run failed (no patient text in it), when `status` is 'failed'. */
  error?: { error: string; message: string };
}

export interface EnrollmentSentence { id: string; text: string; recorded: boolean; durationSeconds?: number }

/** What `PATCH /v1/speech/adaptation` changes. */
export interface AdaptationChoice { enabled?: boolean; useCorrectedDictation?: boolean }
