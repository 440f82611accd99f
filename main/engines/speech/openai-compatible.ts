/**
 * Speech recogniser that calls an OpenAI-compatible `POST /v1/audio/transcriptions` server:
 * faster-whisper servers (speaches, faster-whisper-server), whisper.cpp's `server`, or hosted
 * Whisper. The audio goes up as a 16 kHz mono WAV; the answer is `verbose_json` with word
 * timestamps. This file is the only place that knows that wire format.
 *
 * Audio and text are patient data: nothing from a request or a response body is logged or put in
 * an error message; errors name the HTTP status only.
 */
import { DomainError } from '../../services/errors.js';
import { createOpenAiHttpClient, type OpenAiHttpOptions } from '../openai/http-client.js';
import type { RecognitionOptions, RecognitionResult, RecognizedWord, SpeechRecognizer } from '../../services/transcriptions/ports.js';

/**
 * The connection fields (`apiKey`, `timeoutMs`, `maxRetries`, `retryBaseDelayMs`,
 * `maxRetryDelayMs`, `fetch`) are the shared client's (engines/openai/http-client.ts, same
 * defaults); here they come from `CLINDOC_ASR_API_KEY`, `CLINDOC_ASR_TIMEOUT_MS` and
 * `CLINDOC_ASR_MAX_RETRIES`.
 */
export interface OpenAiCompatibleOptions extends Omit<OpenAiHttpOptions, 'server' | 'timeoutHint'> {
  /**
   * Server address, with or without the `/v1` suffix: `http://127.0.0.1:8000` and
   * `https://api.openai.com/v1` both work. Environment (read by the composition root):
   * `CLINDOC_ASR_BASE_URL`.
   */
  baseUrl: string;
  /** Model name sent as `model` (`whisper-1`, `Systran/faster-whisper-small`...). Env `CLINDOC_ASR_MODEL`, default `whisper-1`. */
  model: string;
}

/** The parts of an OpenAI `verbose_json` transcription this adapter reads. */
interface VerboseJson {
  text?: string;
  words?: Array<{ word: string; start: number; end: number; probability?: number }>;
  segments?: Array<{
    start: number;
    end: number;
    text: string;
    avg_logprob?: number;
    words?: Array<{ word: string; start: number; end: number; probability?: number }>;
  }>;
}

/** Encodes 16-bit mono PCM as a RIFF/WAVE file. */
export function encodeWav(pcm: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function endpoint(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(base) ? `${base}/audio/transcriptions` : `${base}/v1/audio/transcriptions`;
}

/** Lower-case word without Whisper's leading space and surrounding punctuation. */
const bareWord = (w: string): string => w.trim().toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Maps a verbose_json body to the product's result; exported for the tests of odd server answers. */
export function toRecognitionResult(body: VerboseJson): RecognitionResult {
  const segments = body.segments ?? [];
  const segmentConfidence = (t: number): number => {
    const seg = segments.find((s) => t >= s.start && t <= s.end);
    return seg?.avg_logprob === undefined ? 0.5 : clamp01(Math.exp(seg.avg_logprob));
  };
  let timed = body.words ?? segments.flatMap((s) => s.words ?? []);
  if (timed.length === 0) {
    // Servers without word timestamps: spread each segment's words over its time by length.
    timed = segments.flatMap((s) => {
      const parts = s.text.split(/\s+/).filter(Boolean);
      const chars = parts.reduce((n, p) => n + p.length, 0) || 1;
      let t = s.start;
      return parts.map((p) => {
        const d = ((s.end - s.start) * p.length) / chars;
        const w = { word: p, start: t, end: t + d };
        t += d;
        return w;
      });
    });
  }
  const words: RecognizedWord[] = timed
    .map((w) => ({
      word: bareWord(w.word),
      start: w.start,
      end: w.end,
      confidence: w.probability !== undefined ? clamp01(w.probability) : segmentConfidence((w.start + w.end) / 2),
    }))
    .filter((w) => w.word.length > 0);
  const text = (body.text ?? segments.map((s) => s.text).join(' ')).trim();
  const confidence = words.length ? words.reduce((n, w) => n + w.confidence, 0) / words.length : 0;
  return { text, words, confidence };
}

/**
 * Creates a recogniser backed by an OpenAI-compatible transcription server, through the shared
 * OpenAI-compatible client (`../openai/http-client.ts`): retries of 429, 5xx and connection
 * failures with backoff and jitter honouring `Retry-After`, the caller's abort, a time limit per
 * attempt; a server that stays down or answers with an error becomes a 503 `engine_unavailable`.
 */
export function createOpenAiCompatibleRecognizer(options: OpenAiCompatibleOptions): SpeechRecognizer {
  const url = endpoint(options.baseUrl);
  const sampleRate = 16000;
  // The options' key, time limit, retries and fetch are the client's own.
  const http = createOpenAiHttpClient({ ...options, server: 'OpenAI-compatible speech server', timeoutHint: 'set by CLINDOC_ASR_TIMEOUT_MS' });

  const upload = (wav: Buffer, language: string): FormData => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', options.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    form.append('temperature', '0');
    // Whisper servers take ISO 639-1 codes: "en-US" -> "en".
    if (language) form.append('language', language.split(/[-_]/)[0]!.toLowerCase());
    return form;
  };

  const read = async (res: Response): Promise<VerboseJson> => {
    try {
      return (await res.json()) as VerboseJson;
    } catch (err) {
      throw new DomainError('engine_unavailable', 'speech server answered with a body that is not JSON', { cause: err });
    }
  };

  return {
    name: 'openai-compatible',
    sampleRate,
    async transcribe(pcm: Int16Array, opts: RecognitionOptions): Promise<RecognitionResult> {
      const wav = encodeWav(pcm, sampleRate);
      const body = await http.post({
        url,
        accept: 'application/json',
        // The multipart boundary is fetch's to choose: no content type of our own.
        body: () => ({ body: upload(wav, opts.language) }),
        read,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return toRecognitionResult(body);
    },
  };
}
