/**
 * Speech recogniser that calls an OpenAI-compatible `POST /v1/audio/transcriptions` server:
 * faster-whisper servers (speaches, faster-whisper-server), whisper.cpp's `server`, or hosted
 * Whisper. The audio goes up as a 16 kHz mono WAV; the answer is `verbose_json` with word
 * timestamps. This file is the only place that knows that wire format.
 *
 * Audio and text are patient data: nothing from a request or a response body is logged or put in
 * an error message; errors name the HTTP status only.
 */
import { DomainError, engineUnavailable } from '../../services/errors.js';
import type { RecognitionOptions, RecognitionResult, RecognizedWord, SpeechRecognizer } from '../../services/transcriptions/ports.js';

export interface OpenAiCompatibleOptions {
  /**
   * Server address, with or without the `/v1` suffix: `http://127.0.0.1:8000` and
   * `https://api.openai.com/v1` both work. Environment (read by the composition root):
   * `CLINDOC_ASR_BASE_URL`.
   */
  baseUrl: string;
  /** Model name sent as `model` (`whisper-1`, `Systran/faster-whisper-small`...). Env `CLINDOC_ASR_MODEL`, default `whisper-1`. */
  model: string;
  /** Sent as `Authorization: Bearer`; local servers usually need none. Env `CLINDOC_ASR_API_KEY`. */
  apiKey?: string;
  /** Per-attempt time limit in milliseconds. Default 120000 (long dictations on a slow CPU server). */
  timeoutMs?: number;
  /** Extra attempts after a 429, 5xx or connection failure. Default 2. */
  maxRetries?: number;
  /** Longest wait between attempts, whatever `Retry-After` asks for. Default 30000 ms. */
  maxRetryDelayMs?: number;
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

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

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

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
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
 * Creates a recogniser backed by an OpenAI-compatible transcription server. Retries 429, 5xx and
 * connection failures with exponential backoff, honouring `Retry-After`; a server that stays
 * down or answers with an error becomes a 503 `engine_unavailable` DomainError.
 */
export function createOpenAiCompatibleRecognizer(options: OpenAiCompatibleOptions): SpeechRecognizer {
  const url = endpoint(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const sampleRate = 16000;

  async function attempt(wav: Buffer, language: string): Promise<{ body?: VerboseJson; status: number; retryAfter: number | null }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', options.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    form.append('temperature', '0');
    // Whisper servers take ISO 639-1 codes: "en-US" -> "en".
    if (language) form.append('language', language.split(/[-_]/)[0]!.toLowerCase());
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const res = await fetch(url, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(timeoutMs) });
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    if (!res.ok) {
      await res.body?.cancel();
      return { status: res.status, retryAfter };
    }
    try {
      return { body: (await res.json()) as VerboseJson, status: res.status, retryAfter };
    } catch (err) {
      throw new DomainError('engine_unavailable', 'speech server answered with a body that is not JSON', { cause: err });
    }
  }

  return {
    name: 'openai-compatible',
    sampleRate,
    async transcribe(pcm: Int16Array, opts: RecognitionOptions): Promise<RecognitionResult> {
      const wav = encodeWav(pcm, sampleRate);
      let lastProblem = 'no attempt made';
      for (let n = 0; n <= maxRetries; n++) {
        let delay = Math.min(maxDelay, 500 * 2 ** n);
        try {
          const r = await attempt(wav, opts.language);
          if (r.body) return toRecognitionResult(r.body);
          lastProblem = `HTTP ${r.status}`;
          if (!RETRYABLE.has(r.status)) break;
          if (r.retryAfter !== null) delay = Math.min(maxDelay, r.retryAfter);
        } catch (err) {
          if (err instanceof DomainError) throw err;
          lastProblem = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'connection failed';
        }
        if (n < maxRetries) await new Promise((resolve) => setTimeout(resolve, delay));
      }
      throw engineUnavailable(`OpenAI-compatible speech server unavailable (${lastProblem})`);
    },
  };
}
