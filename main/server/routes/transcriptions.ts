import type { Request } from 'express';
import busboy from 'busboy';
import { PassThrough } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import {
  AUDIO_TYPES, normaliseAudioType, parseTranscriptionOptions, type TranscriptionService, type TranscriptionOptions,
} from '../../services/transcriptions/transcription-service.js';
import type { AccountService } from '../../services/accounts/account-service.js';
import { DomainError, invalidRequest, payloadTooLarge } from '../../services/errors.js';
import { IdParam, PageQuery, StreamToken, TranscriptionAccepted, TranscriptionV1View, TranscriptionV2View, pageOf } from '../schemas.js';

/** Multipart overhead allowed above the audio limit before Content-Length alone is a 413. */
const MULTIPART_SLACK = 64 * 1024;

export interface TranscriptionRouteDeps {
  transcriptions: TranscriptionService;
  accounts: AccountService;
  maxAudioBytes: number;
  streamTokenTtlSeconds: number;
  /** Rejects (400) unless the URL is one of the account's registered webhooks. */
  validateWebhookUrl: (accountId: string, url: string) => Promise<void>;
}

/** Reads a multipart upload: the file in field `audio`, options in the other fields. */
async function readMultipart(req: Request, deps: TranscriptionRouteDeps): Promise<{ key: string; type: string; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof busboy>;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 4096, fileSize: deps.maxAudioBytes + 1 } });
    } catch {
      reject(invalidRequest('body: malformed multipart/form-data'));
      return;
    }
    const fields: Record<string, string> = {};
    let stored: Promise<{ key: string; type: string }> | undefined;
    let failed: unknown;
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (name, file, info) => {
      if (name !== 'audio' || stored) {
        file.resume();
        return;
      }
      let type: string;
      try {
        type = normaliseAudioType(info.mimeType === 'application/octet-stream' ? guessType(info.filename) : info.mimeType);
      } catch (err) {
        failed = err;
        file.resume();
        return;
      }
      stored = deps.transcriptions.storeAudio(file, type);
      stored.catch((err: unknown) => {
        // The failed write destroyed the file stream, so the parser would wait for it forever (a
        // multipart upload on a full disk once never answered): answer now; the route drains the rest.
        failed = err;
        req.unpipe(bb);
        reject(err);
      });
    });
    bb.on('error', () => reject(invalidRequest('body: malformed multipart/form-data')));
    // As for a raw body (detachedBody): a client gone part way must end the file's write too.
    req.once('close', () => {
      if (!req.complete) bb.destroy(clientWentAway());
    });
    bb.on('close', () => {
      if (failed) {
        reject(failed);
        return;
      }
      if (!stored) {
        reject(invalidRequest('audio: a file field named "audio" is required'));
        return;
      }
      stored.then((s) => resolve({ ...s, fields }), reject);
    });
    req.pipe(bb);
  });
}

/**
 * The request body through a stream of its own: a failed write (a full disk, an oversized body)
 * destroys that stream, not the request and its socket, so the client still receives the error
 * and the route drains the rest of the body.
 */
export function detachedBody(req: Request): PassThrough {
  const body = new PassThrough();
  req.pipe(body);
  // `pipe` does not pass on a client that went away: without this the write would wait for ever,
  // holding its temporary file open.
  req.once('close', () => {
    if (!req.complete) body.destroy(clientWentAway());
  });
  return body;
}

/** A body-parser style error: the error handler answers it as "request was aborted" (to no one). */
const clientWentAway = (): Error => Object.assign(new Error('request aborted'), { type: 'request.aborted' });

/** Browsers and curl send octet-stream for unknown files: fall back on the extension. */
function guessType(filename: string | undefined): string {
  const ext = (filename ?? '').toLowerCase().split('.').pop() ?? '';
  const byExt: Record<string, string> = {
    wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg', oga: 'audio/ogg', webm: 'audio/webm', mp4: 'audio/mp4',
    m4a: 'audio/m4a', aac: 'audio/aac', opus: 'audio/opus',
  };
  return byExt[ext] ?? 'application/octet-stream';
}

/** V2 batch transcriptions, the contract's v1 view, and streaming tokens. */
export function registerTranscriptionRoutes(registry: RouteRegistry, deps: TranscriptionRouteDeps): void {
  const v2 = ['Transcriptions (V2)'];
  registry.add(
    {
      method: 'post', path: '/v2/audio/transcriptions', operationId: 'createTranscription', tags: v2,
      summary: 'Upload audio for asynchronous transcription',
      description:
        'multipart/form-data with the file in `audio` (and optional fields language, dictation, diarization, webhookUrl, engine), or a raw body with an audio Content-Type and the options as query parameters. Answers 202 at once. Over 100 MB is a 413; unsupported types a 415.',
      rawBody: { contentTypes: ['multipart/form-data', ...AUDIO_TYPES], description: 'Audio file (multipart field `audio`) or raw audio bytes.' },
      query: Type.Object({
        language: Type.Optional(Type.String({ default: 'en' })),
        dictation: Type.Optional(Type.String({ enum: ['true', 'false'] })),
        diarization: Type.Optional(Type.String({ enum: ['true', 'false'] })),
        webhookUrl: Type.Optional(Type.String()),
        engine: Type.Optional(Type.String()),
      }),
      envelope: 'raw', success: { status: 202, description: 'Accepted', schema: TranscriptionAccepted }, errors: [400, 413, 415],
    },
    async ({ req, query, principal }) => {
      const length = Number(req.get('content-length') ?? 0);
      if (length > deps.maxAudioBytes + MULTIPART_SLACK) {
        req.resume(); // discard, never buffer
        throw payloadTooLarge(`audio exceeds the ${deps.maxAudioBytes} byte limit`);
      }
      let stored: { key: string; type: string };
      // The query's options, overridden by a multipart upload's own fields.
      let fields: Record<string, unknown> = query;
      try {
        if (req.is('multipart/form-data')) {
          const parsed = await readMultipart(req, deps);
          stored = parsed;
          fields = { ...fields, ...parsed.fields };
        } else {
          const type = normaliseAudioType(req.get('content-type'));
          stored = await deps.transcriptions.storeAudio(detachedBody(req), type);
        }
      } catch (err) {
        req.resume();
        throw err;
      }
      let options: TranscriptionOptions;
      try {
        options = parseTranscriptionOptions(fields);
        if (options.webhookUrl) await deps.validateWebhookUrl(principal.accountId, options.webhookUrl);
      } catch (err) {
        await deps.transcriptions.discardAudio(stored.key);
        throw err;
      }
      return deps.transcriptions.accept(principal.accountId, stored, options);
    },
  );
  registry.add(
    {
      method: 'get', path: '/v2/audio/transcriptions', operationId: 'listTranscriptions', tags: v2, summary: 'List transcriptions, newest first',
      query: PageQuery, envelope: 'standard', success: { status: 200, description: 'A page', schema: pageOf(TranscriptionV2View) }, errors: [400],
    },
    ({ principal, query }) => deps.transcriptions.list(principal.accountId, query.limit ?? 20, query.cursor),
  );
  registry.add(
    {
      method: 'get', path: '/v2/audio/transcriptions/:transcriptionId', operationId: 'getTranscriptionV2', tags: v2, summary: 'Get a transcription record',
      params: IdParam('transcriptionId'), envelope: 'raw', success: { status: 200, description: 'The record', schema: TranscriptionV2View }, errors: [404],
    },
    ({ principal, params }) => deps.transcriptions.getV2(principal.accountId, params.transcriptionId),
  );
  const v1 = ['Transcriptions'];
  registry.add(
    {
      method: 'get', path: '/v1/audio/transcriptions/:transcriptionId', operationId: 'getTranscription', tags: v1,
      summary: "The contract's view of a transcription", params: IdParam('transcriptionId'), envelope: 'standard',
      success: { status: 200, description: 'The transcription', schema: TranscriptionV1View }, errors: [404],
    },
    ({ principal, params }) => deps.transcriptions.getV1(principal.accountId, params.transcriptionId),
  );
  // Both versions delete alike: the record and its audio.
  for (const [path, operationId, tags] of [['/v2', 'deleteTranscriptionV2', v2], ['/v1', 'deleteTranscription', v1]] as const) {
    registry.add(
      {
        method: 'delete', path: `${path}/audio/transcriptions/:transcriptionId`, operationId, tags: [...tags], summary: 'Delete a transcription and its audio',
        params: IdParam('transcriptionId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
      },
      ({ principal, params }) => deps.transcriptions.delete(principal.accountId, params.transcriptionId),
    );
  }
  registry.add(
    {
      method: 'post', path: '/v1/audio/transcriptions/stream/token', operationId: 'createStreamToken', tags: v1,
      summary: 'Issue a temporary token for the streaming socket',
      description: 'The token authenticates only this account\'s streaming WebSocket (query `api_token`), for CLINDOC_STREAM_TOKEN_TTL_SECONDS (default 600).',
      envelope: 'raw', success: { status: 200, description: 'The token', schema: StreamToken }, errors: [],
    },
    ({ principal }) => deps.accounts.issueStreamToken(principal, deps.streamTokenTtlSeconds),
  );
}

export { DomainError };
