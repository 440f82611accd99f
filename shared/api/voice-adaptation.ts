import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire schemas of voice adaptation (`/v1/speech/adaptation`, issue 27 point 9): the physician reads
 * enrollment sentences, and the embedded recogniser's acoustic model is adapted to their voice.
 */
const Status = Type.Unsafe<'not_enrolled' | 'recording' | 'adapting' | 'ready' | 'failed'>({
  type: 'string', enum: ['not_enrolled', 'recording', 'adapting', 'ready', 'failed'],
  description: '`not_enrolled` (no recordings), `recording` (some, no adapted model yet), `adapting` (a run is queued or running), `ready` (an adapted model exists), `failed` (the last run failed; `error` says why).',
});

export const AdaptationState = Type.Object({
  status: Status,
  enabled: Type.Boolean({ description: 'The adapted model is used for this account\'s live and batch recognition with the embedded recogniser (pocketsphinx). Left false after a run that did not lower the held-out word error rate.' }),
  useCorrectedDictation: Type.Boolean({ description: 'Consent: the physician\'s own dictation (recordings attached to visits) with the visit\'s final, corrected transcript joins the adaptation material at the next run.' }),
  sentences: Type.Array(Type.Object({
    id: Type.String(),
    text: Type.String({ description: 'The sentence to read aloud.' }),
    recorded: Type.Boolean(),
    durationSeconds: Type.Optional(Type.Number({ minimum: 0 })),
  }), { description: 'The enrollment sentences (about 20, about two minutes in all).' }),
  minimumRecordings: Type.Integer({ minimum: 1, description: 'Recordings a run needs (POST runs answers 409 below it).' }),
  adaptedAt: Type.Optional(Type.String({ format: 'date-time' })),
  recordingsUsed: Type.Optional(Type.Integer({ minimum: 0, description: 'Recordings the last run could align with their text and adapted on.' })),
  measured: Type.Optional(Type.Object({
    heldOutSentences: Type.Integer({ minimum: 0 }),
    werBefore: Type.Number({ minimum: 0, description: 'Word error rate (0..1) of the general model on the account\'s held-out enrollment sentences (never adapted on).' }),
    werAfter: Type.Number({ minimum: 0, description: 'The same with the adapted model.' }),
  })),
  error: Type.Optional(Type.Object({ error: Type.String(), message: Type.String() }, { description: 'Why the last run failed (no patient text).' })),
});
export type AdaptationState = Static<typeof AdaptationState>;

export const AdaptationPatch = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  useCorrectedDictation: Type.Optional(Type.Boolean()),
});
export type AdaptationPatch = Static<typeof AdaptationPatch>;

export const AdaptationRecording = Type.Object({ sentenceId: Type.String(), durationSeconds: Type.Number({ minimum: 0 }) });
export type AdaptationRecording = Static<typeof AdaptationRecording>;
