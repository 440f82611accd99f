import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import { AdaptationPatch, AdaptationRecording, AdaptationState } from '../../../shared/api/voice-adaptation.js';
import { AUDIO_TYPES, normaliseAudioType } from '../../services/transcriptions/transcription-service.js';
import type { VoiceAdaptationService } from '../../services/voice-adaptation/voice-adaptation-service.js';
import { payloadTooLarge } from '../../services/errors.js';
import { registerAccountRead } from './account-read.js';
import { detachedBody } from './transcriptions.js';

const SentenceParam = Type.Object({ sentenceId: Type.String({ minLength: 1, maxLength: 40 }) });

const ABOUT =
  'Only the embedded recogniser (pocketsphinx) is adapted; other engines ignore the adapted model. Recordings and the adapted model stay in the ' +
  'account\'s encrypted storage; at recognition time the model is decrypted to a private temporary folder for as long as the account\'s recogniser is loaded.';

/** Learning the physician's voice (issue 27 point 9; extension: `/v1/speech/adaptation`). */
export function registerVoiceAdaptationRoutes(registry: RouteRegistry, deps: { adaptation: VoiceAdaptationService; maxAudioBytes: number }): void {
  const tags = ['Voice adaptation'];
  const { adaptation } = deps;
  registerAccountRead(registry, {
    path: '/v1/speech/adaptation', operationId: 'getVoiceAdaptation', tags, summary: 'Enrollment sentences, recordings and the adapted model\'s state',
    description: ABOUT, schema: AdaptationState, answer: 'The adaptation state',
  }, (accountId) => adaptation.state(accountId));
  registry.add(
    {
      method: 'put', path: '/v1/speech/adaptation/recordings/:sentenceId', operationId: 'putVoiceAdaptationRecording', tags,
      summary: 'Record one enrollment sentence',
      description: `The audio of the sentence read aloud (any container ffmpeg reads), at most 30 s; replaces an earlier recording of it. An unknown sentence is a 404, empty or too long audio a 400, audio that cannot be decoded a 415. ${ABOUT}`,
      params: SentenceParam, rawBody: { contentTypes: [...AUDIO_TYPES], description: 'The recording.' },
      envelope: 'standard', success: { status: 200, description: 'Stored', schema: AdaptationRecording }, errors: [400, 404, 413, 415],
    },
    async ({ req, params, principal }) => {
      try {
        if (Number(req.get('content-length') ?? 0) > deps.maxAudioBytes) throw payloadTooLarge(`audio exceeds the ${deps.maxAudioBytes} byte limit`);
        normaliseAudioType(req.get('content-type'));
        return await adaptation.saveRecording(principal.accountId, params.sentenceId, detachedBody(req));
      } catch (err) {
        req.resume(); // discard the rest, never buffer it
        throw err;
      }
    },
  );
  registry.add(
    {
      method: 'delete', path: '/v1/speech/adaptation/recordings/:sentenceId', operationId: 'deleteVoiceAdaptationRecording', tags,
      summary: 'Remove one enrollment recording', params: SentenceParam, envelope: 'raw', success: { status: 204, description: 'Removed (or never recorded)' }, errors: [404],
    },
    async ({ res, params, principal }) => {
      await adaptation.deleteRecording(principal.accountId, params.sentenceId);
      res.status(204).end();
    },
  );
  registry.add(
    {
      method: 'post', path: '/v1/speech/adaptation/runs', operationId: 'startVoiceAdaptation', tags, summary: 'Adapt the embedded recogniser to the recorded voice',
      description:
        'Queues a run (a background job): the recordings of the sentences not held out (and, with `useCorrectedDictation`, the account\'s dictation attached to visits with the visit\'s final transcript) ' +
        'adapt the acoustic model with sphinxtrain (MLLR, then MAP); the held-out sentences measure the word error rate before and after. The model is turned on (`enabled`) only when it lowered it. ' +
        'Fewer than `minimumRecordings` recordings, or a run already under way, is a 409.',
      envelope: 'standard', success: { status: 202, description: 'Queued; the state says `adapting`', schema: AdaptationState }, errors: [409],
    },
    ({ principal }) => adaptation.startRun(principal.accountId),
  );
  registry.add(
    {
      method: 'patch', path: '/v1/speech/adaptation', operationId: 'changeVoiceAdaptation', tags, summary: 'Turn the adapted model on or off; consent to learning from corrected dictation',
      description: 'Turning on (`enabled: true`) without an adapted model is a 409.',
      body: AdaptationPatch, envelope: 'standard', success: { status: 200, description: 'The adaptation state', schema: AdaptationState }, errors: [400, 409, 415],
    },
    ({ principal, body }) => adaptation.change(principal.accountId, body),
  );
  registry.add(
    {
      method: 'delete', path: '/v1/speech/adaptation', operationId: 'deleteVoiceAdaptation', tags, summary: 'Forget the voice: recordings and adapted model',
      description: 'Removes every enrollment recording and the adapted model; recognition returns to the general model at once. Corrected dictation is never copied, so nothing else remains.',
      envelope: 'raw', success: { status: 204, description: 'Removed' }, errors: [],
    },
    async ({ res, principal }) => {
      await adaptation.deleteAll(principal.accountId);
      res.status(204).end();
    },
  );
}
