/**
 * Reads a streaming upgrade request: the Host/Origin defence shared with the REST API, the
 * credentials (either set of the contract) and the query parameters. Nothing here touches the
 * socket, so each rule is easy to test and the attach code stays a thin shell.
 */
import type { IncomingMessage } from 'node:http';
import { DomainError, invalidRequest } from '../../services/errors.js';
import { hostOriginPolicy } from '../middleware/local-guard.js';

/** Encodings of the contract's streaming `encoding` parameter. */
export const STREAMING_ENCODINGS = [
  'linear16', 'linear32', 'alaw', 'mulaw', 'flac', 'amr-nb', 'amr-wb', 'opus', 'ogg-opus', 'speex', 'g729',
] as const;

export interface OriginPolicy {
  port: () => number;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** The clinic's name is served over HTTPS (TLS here or a TLS proxy in front); see the local guard. */
  secure?: boolean;
}

/**
 * Same rules as the REST API's local guard (the same function): `Host` must name this local
 * service (DNS rebinding), and an `Origin`, when present, must be the app's own or on the
 * allow-list (web pages in the physician's browser). Returns the refusal reason, or null when the
 * request may upgrade.
 */
export function refuseByOrigin(req: IncomingMessage, policy: OriginPolicy): string | null {
  return hostOriginPolicy({ port: policy.port, extraHosts: policy.allowedHosts, allowedOrigins: policy.allowedOrigins, secure: policy.secure ?? false })
    .refusal(req.headers.host, req.headers.origin);
}

export interface Credentials {
  apiKey?: string;
  token?: string;
  accountId?: string;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
};

/** Credentials from headers or query; a header wins over the query when both are present. */
export function readCredentials(req: IncomingMessage, query: URLSearchParams): Credentials {
  const apiKey = header(req, 'x-api-key');
  const token = header(req, 'x-api-token') ?? (query.get('api_token') || undefined);
  const accountId = header(req, 'x-account-id') ?? (query.get('account_id') || undefined);
  return { ...(apiKey ? { apiKey } : {}), ...(token ? { token } : {}), ...(accountId ? { accountId } : {}) };
}

export interface SessionParams {
  language: string;
  sampleRate: number;
  /** Undefined for container audio (WAV, WebM, Ogg) that the decoder identifies itself. */
  encoding?: string;
  dictation: boolean;
  /** Interleaved channels of raw PCM (query `channels`, an extension; default 1). */
  channels: number;
}

function parseBoolean(name: string, value: string | null, fallback: boolean): boolean {
  if (value === null || value === '') return fallback;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidRequest(`${name} must be true or false`);
}

function parseInteger(name: string, value: string | null, fallback: number, min: number, max: number): number {
  if (value === null || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw invalidRequest(`${name} must be an integer`);
  const n = Number(value);
  if (n < min || n > max) throw invalidRequest(`${name} must be between ${min} and ${max}`);
  return n;
}

/** Validates the query parameters of the contract; throws DomainError `invalid_request`. */
export function readSessionParams(query: URLSearchParams): SessionParams {
  const language = (query.get('language') || 'en').trim();
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) throw invalidRequest('language must be a language tag such as en or en-US');
  const encodingRaw = query.get('encoding');
  const encoding = encodingRaw ? encodingRaw.toLowerCase() : undefined;
  if (encoding !== undefined && !(STREAMING_ENCODINGS as readonly string[]).includes(encoding)) {
    throw invalidRequest(`encoding must be one of ${STREAMING_ENCODINGS.join(', ')}`);
  }
  // The contract's default is 16000 for every encoding; raw telephone audio must say 8000.
  const sampleRate = parseInteger('sample_rate', query.get('sample_rate'), 16000, 4000, 192000);
  return {
    language,
    sampleRate,
    ...(encoding ? { encoding } : {}),
    dictation: parseBoolean('dictation', query.get('dictation'), false),
    channels: parseInteger('channels', query.get('channels'), 1, 1, 8),
  };
}

/** A refusal that closes the socket with 1008 after its error message (a lockout after wrong keys is one). */
export const isPolicyError = (err: unknown): err is DomainError =>
  err instanceof DomainError && (err.kind === 'invalid_request' || err.kind === 'unauthorized' || err.kind === 'forbidden' || err.kind === 'rate_limited');
