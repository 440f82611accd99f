import type { Static } from '@sinclair/typebox';
import type { NoteTemplate } from '../../shared/note-template.js';
import type { EngineSettingsBody, MacroBody, NoteCreated, NoteStyleBody, NoteStyleResult, TranscriptionAccepted, WebhookBody } from '../../shared/api/schemas.js';
import type { WebhookEvent } from '../../shared/api/webhook-events.js';
import type { EnginesStatus, ModelList, ModelPullView, ModelView } from '../../shared/api/models.js';


import type { AddendumBody, AddendumView, NoteEditBody, SignBody } from '../../shared/api/signing.js';
import type { VisitBody, VisitSummary, VisitView } from '../../shared/api/visits.js';
import type { BackupList, CreatedBackup } from '../../shared/api/backups.js';
import type { CodeEditionImported, CodeEditionList } from '../../shared/api/coding-editions.js';
import type { CodingAnalysisView } from '../../shared/api/coding.js';
import { serverLabel } from './clinic-server.js';
import type { AdaptationPatch, AdaptationRecording, AdaptationState } from '../../shared/api/voice-adaptation.js';
import type {
  Connection, CreateNoteRequest, DeletedCounts, EngineSettings, MacroDefinition, MacroResult, NoteView, Page, StorageReport, StreamToken, TranscriptionRecord, WebhookView,
} from './types.js';

/** An answer of `POST /v1/coding/analyze`, typed by the server's own schema (the transport owns it; the codes store reads it). */
export type CodingAnalysis = Static<typeof CodingAnalysisView>;

/** A failed API call: the HTTP status and the server's `{error, message}` text (never patient data). */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Whether an error message is the client's own "cannot be reached" (status 0), which a reconnect makes untrue. */
export const saidUnreachable = (message: string): boolean => / cannot be reached/.test(message);

type Fetch = typeof fetch;

export interface TranscriptionUpload {
  audio: Blob;
  filename: string;
  language?: string;
  diarization?: boolean;
  dictation?: boolean;
  engine?: string;
}

/** The typed client of the local API, one method per operation the interface uses. */
export interface ApiClient {
  readonly connection: Connection;
  health(): Promise<boolean>;
  createNote(body: CreateNoteRequest): Promise<NoteCreated>;
  getNote(id: string): Promise<NoteView>;
  listNotes(cursor?: string): Promise<Page<NoteView>>;
  deleteNote(id: string): Promise<void>;
  /** Saves an edited draft; `version` is the one last read (412 when it changed elsewhere, 409 once signed). */
  editNote(id: string, markdown: string, version: number, options?: { keepalive?: boolean }): Promise<NoteView>;
  /** Signs a draft at `version` as `signer`: it becomes read-only. */
  signNote(id: string, signer: string, version: number): Promise<NoteView>;
  /** Adds an addendum to a signed note. */
  addAddendum(id: string, text: string, author: string): Promise<AddendumView>;
  createVisit(body: VisitBody): Promise<VisitView>;
  getVisit(id: string): Promise<VisitView>;
  /** Visits newest first; `q` finds them by patient name or what was said. */
  listVisits(q?: string, cursor?: string, dateOfBirth?: string): Promise<Page<VisitSummary>>;
  /**
   * Autosave: changes the visit at `version` (412 when another window changed it since).
   * `keepalive` lets the request finish while the page is being closed.
   */
  updateVisit(id: string, patch: VisitBody, version: number, options?: { keepalive?: boolean }): Promise<VisitView>;
  deleteVisit(id: string): Promise<void>;
  createNoteStyle(sampleNote: string, instructions: string[]): Promise<NoteStyleResult>;
  detectMacros(text: string, macros: MacroDefinition[]): Promise<MacroResult>;
  listMacros(cursor?: string): Promise<Page<MacroDefinition>>;
  createMacro(macro: MacroDefinition): Promise<MacroDefinition>;
  replaceMacro(id: string, macro: MacroDefinition): Promise<MacroDefinition>;
  deleteMacro(id: string): Promise<void>;
  listTemplates(cursor?: string): Promise<Page<NoteTemplate>>;
  createTemplate(t: NoteTemplate): Promise<NoteTemplate>;
  replaceTemplate(id: string, t: NoteTemplate): Promise<NoteTemplate>;
  deleteTemplate(id: string): Promise<void>;
  uploadTranscription(upload: TranscriptionUpload): Promise<TranscriptionAccepted>;
  getTranscription(id: string): Promise<TranscriptionRecord>;
  listTranscriptions(cursor?: string): Promise<Page<TranscriptionRecord>>;
  deleteTranscription(id: string): Promise<void>;
  createStreamToken(): Promise<StreamToken>;
  listWebhooks(): Promise<WebhookView[]>;
  /** ICD-10-CM and E/M suggestions for a text; evidence offsets count code points of that text. */
  analyzeCoding(text: string): Promise<CodingAnalysis>;
  /** ICD-10-CM editions the installation has (bundled and imported) and the one in use. */
  listCodeEditions(): Promise<CodeEditionList>;
  /** Imports a CMS ICD-10-CM release (order file, optional tabular XML) for the whole installation. */
  importCodeEdition(files: { order: Blob; orderName: string; tabular?: Blob; tabularName?: string; edition?: string }): Promise<CodeEditionImported>;
  createWebhook(url: string, events?: WebhookEvent[]): Promise<WebhookView>;
  deleteWebhook(id: string): Promise<void>;
  /** What the account stores: counts and bytes by kind. */
  storageUsage(): Promise<StorageReport>;
  /** Backups of the installation and the schedule (`GET /v1/backups`; operator role, else 403). */
  listBackups(): Promise<BackupList>;
  /** Writes a backup now (`POST /v1/backups`; operator role, else 403; 409 without a backup folder). */
  createBackup(): Promise<CreatedBackup>;
  /** Deletes all of the account's data (not its audit trail). */
  deleteAllStorage(): Promise<DeletedCounts>;
  engineSettings(): Promise<EngineSettings>;
  /**
   * Chooses the account's recogniser and/or note engine (null follows the device default, absent
   * leaves it). A model that cannot load is refused (503) and the previous engine stays.
   */
  setEngineSettings(choice: EngineSettingsBody): Promise<EngineSettings>;

  /** The socket URL of live transcription, authenticated with a fresh temporary token. */
  streamUrl(params: { language?: string; dictation: boolean; sampleRate: number }): Promise<string>;
  /** Recommended and installed models of this device. */
  listModels(): Promise<ModelList>;
  /** Starts (or resumes) a model download; it runs as a background job. */
  pullModel(modelId: string): Promise<ModelPullView>;
  /** Progress of a model's latest download. */
  modelPull(modelId: string): Promise<ModelPullView>;
  cancelModelPull(modelId: string): Promise<ModelPullView>;
  removeModel(modelId: string): Promise<void>;
  importModel(path: string, modelId?: string): Promise<ModelView>;
  /** Which engine answers each task for this account, its measured quality and warnings. */
  engineStatus(): Promise<EnginesStatus>;
  /** The account's voice adaptation: enrollment sentences, readings, the adapted model and its measured effect. */
  voiceAdaptation(): Promise<AdaptationState>;
  /** Saves the reading of one enrollment sentence (a 16 kHz mono WAV, at most 30 s). */
  recordVoiceSentence(sentenceId: string, wav: Blob): Promise<AdaptationRecording>;
  /** Starts an adaptation run (a background job; 409 with too few readings). */
  adaptVoice(): Promise<AdaptationState>;
  setVoiceAdaptation(choice: AdaptationPatch): Promise<AdaptationState>;
  /** Removes the readings, corrected-dictation material and the adapted model. */
  deleteVoiceData(): Promise<void>;
}



/**
 * Builds the client. `fetchImpl` is injectable so store tests can hand in a real server's fetch
 * or a recorder. The API key travels only in headers, never in URLs (the socket uses a token).
 */
export function createApiClient(connection: Connection, fetchImpl: Fetch = (...a) => fetch(...a), pageOrigin?: string): ApiClient {
  const base = connection.baseUrl.replace(/\/+$/, '');
  // A browser hides why a cross-origin call failed (no route, TLS, or an origin the server refuses
  // without CORS headers), so the message names every cause the physician's IT can check.
  const appOrigin = pageOrigin ?? globalThis.location?.origin ?? '';
  const unreachable = connection.clinic
    ? `The clinic server at ${serverLabel(base)} cannot be reached, or it does not accept calls from this app: its CLINDOC_CORS_ORIGINS must list ${appOrigin || 'this app\'s origin'}.`
    : 'The local API cannot be reached. Is Clindoc running?';
  const who = connection.clinic ? 'The clinic server' : 'The local API';
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    'X-API-KEY': connection.apiKey,
    'X-ACCOUNT-ID': connection.accountId,
    ...extra,
  });

  async function call<T>(
    method: string, path: string, body?: unknown, envelope: 'data' | 'raw' | 'none' = 'data', extra: Record<string, string> = {}, keepalive = false,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        ...(keepalive ? { keepalive } : {}),
        headers: headers({ ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, unreachable);
    }
    return readResponse<T>(res, envelope, who);
  }

  /** A request whose body is not JSON (a form, audio): the headers its body needs are the caller's. */
  async function send<T>(method: string, path: string, body: BodyInit, envelope: 'data' | 'raw', extra: Record<string, string> = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, { method, headers: headers(extra), body });
    } catch {
      throw new ApiError(0, unreachable);
    }
    return readResponse<T>(res, envelope, who);
  }

  const page = (path: string, cursor?: string): string => `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const id = encodeURIComponent;

  return {
    connection,
    async health() {
      try {
        return (await fetchImpl(`${base}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    createNote: (body) => call('POST', '/v1/notes', body),
    storageUsage: () => call('GET', '/v1/storage'),
    listBackups: () => call('GET', '/v1/backups'),
    createBackup: () => call('POST', '/v1/backups'),
    engineSettings: () => call('GET', '/v1/settings/engines'),
    setEngineSettings: (choice) => call('PUT', '/v1/settings/engines', choice satisfies EngineSettingsBody),

    deleteAllStorage: () => call('DELETE', '/v1/storage?confirm=all'),
    listModels: () => call('GET', '/v1/models'),
    pullModel: (modelId) => call('POST', `/v1/models/${id(modelId)}/pull`),
    modelPull: (modelId) => call('GET', `/v1/models/${id(modelId)}/pull`),
    cancelModelPull: (modelId) => call('DELETE', `/v1/models/${id(modelId)}/pull`),
    removeModel: (modelId) => call('DELETE', `/v1/models/${id(modelId)}`, undefined, 'none'),
    importModel: (path, modelId) => call('POST', '/v1/models/import', { path, ...(modelId ? { id: modelId } : {}) }),
    engineStatus: () => call('GET', '/v1/engines'),
    voiceAdaptation: () => call('GET', '/v1/speech/adaptation'),
    recordVoiceSentence: (sentenceId, wav) => send('PUT', `/v1/speech/adaptation/recordings/${id(sentenceId)}`, wav, 'data', { 'content-type': 'audio/wav' }),
    adaptVoice: () => call('POST', '/v1/speech/adaptation/runs'),
    setVoiceAdaptation: (choice) => call('PATCH', '/v1/speech/adaptation', choice satisfies AdaptationPatch),
    deleteVoiceData: () => call('DELETE', '/v1/speech/adaptation', undefined, 'none'),


    getNote: (noteId) => call('GET', `/v1/notes/${id(noteId)}`),
    listNotes: (cursor) => call('GET', page('/v1/notes', cursor)),
    deleteNote: (noteId) => call('DELETE', `/v1/notes/${id(noteId)}`, undefined, 'none'),
    editNote: (noteId, markdown, version, options) =>
      call('PUT', `/v1/notes/${id(noteId)}`, { markdown } satisfies NoteEditBody, 'data', { 'If-Match': `"${version}"` }, options?.keepalive ?? false),
    signNote: (noteId, signer, version) => call('POST', `/v1/notes/${id(noteId)}/sign`, { signer } satisfies SignBody, 'data', { 'If-Match': `"${version}"` }),
    addAddendum: (noteId, text, author) => call('POST', `/v1/notes/${id(noteId)}/addenda`, { text, author } satisfies AddendumBody),
    createVisit: (body) => call('POST', '/v1/visits', body),
    getVisit: (visitId) => call('GET', `/v1/visits/${id(visitId)}`),
    listVisits: (q, cursor, dateOfBirth) =>
      call('GET', `${page('/v1/visits', cursor)}${q?.trim() ? `&q=${encodeURIComponent(q.trim())}` : ''}${dateOfBirth ? `&dateOfBirth=${encodeURIComponent(dateOfBirth)}` : ''}`),
    updateVisit: (visitId, patch, version, options) =>
      call('PATCH', `/v1/visits/${id(visitId)}`, patch, 'data', { 'If-Match': `"${version}"` }, options?.keepalive ?? false),
    deleteVisit: (visitId) => call('DELETE', `/v1/visits/${id(visitId)}`, undefined, 'none'),
    createNoteStyle: (sampleNote, instructions) => call('POST', '/v1/note-styles', { sampleNote, instructions } satisfies NoteStyleBody),
    detectMacros: (text, macros) => call('POST', '/v1/macros/detect', { text, macros } satisfies MacroBody),
    listMacros: (cursor) => call('GET', page('/v1/macro-library', cursor)),
    createMacro: (m) => call('POST', '/v1/macro-library', m),
    replaceMacro: (macroId, m) => call('PUT', `/v1/macro-library/${id(macroId)}`, m),
    deleteMacro: (macroId) => call('DELETE', `/v1/macro-library/${id(macroId)}`, undefined, 'none'),
    listTemplates: (cursor) => call('GET', page('/v1/note-templates', cursor)),
    createTemplate: (t) => call('POST', '/v1/note-templates', t),
    replaceTemplate: (templateId, t) => call('PUT', `/v1/note-templates/${id(templateId)}`, t),
    deleteTemplate: (templateId) => call('DELETE', `/v1/note-templates/${id(templateId)}`, undefined, 'none'),
    async uploadTranscription(upload) {
      const form = new FormData();
      form.set('language', upload.language ?? 'en');
      form.set('diarization', String(upload.diarization ?? true));
      form.set('dictation', String(upload.dictation ?? false));
      if (upload.engine) form.set('engine', upload.engine);
      form.set('audio', upload.audio, upload.filename);
      return send<TranscriptionAccepted>('POST', '/v2/audio/transcriptions', form, 'raw');
    },
    getTranscription: (tid) => call('GET', `/v2/audio/transcriptions/${id(tid)}`, undefined, 'raw'),
    listTranscriptions: (cursor) => call('GET', page('/v2/audio/transcriptions', cursor)),
    deleteTranscription: (tid) => call('DELETE', `/v2/audio/transcriptions/${id(tid)}`, undefined, 'none'),
    createStreamToken: () => call('POST', '/v1/audio/transcriptions/stream/token', undefined, 'raw'),
    listWebhooks: () => call('GET', '/v1/webhooks'),
    analyzeCoding: (text) => call('POST', '/v1/coding/analyze', { text }),
    listCodeEditions: () => call('GET', '/v1/coding/editions'),
    async importCodeEdition(files) {
      const form = new FormData();
      if (files.edition) form.set('edition', files.edition);
      form.set('order', files.order, files.orderName);
      if (files.tabular) form.set('tabular', files.tabular, files.tabularName ?? 'tabular.xml');
      return send<CodeEditionImported>('POST', '/v1/coding/editions', form, 'data');
    },
    createWebhook: (url, events) => call('POST', '/v1/webhooks', (events && events.length ? { url, events } : { url }) satisfies WebhookBody),
    deleteWebhook: (wid) => call('DELETE', `/v1/webhooks/${id(wid)}`, undefined, 'none'),
    async streamUrl({ language, dictation, sampleRate }) {
      const { token } = await this.createStreamToken();
      const origin = base || appOrigin;
      const ws = origin.replace(/^http/, 'ws');
      const q = new URLSearchParams({
        encoding: 'linear16',
        sample_rate: String(sampleRate),
        language: language ?? 'en',
        dictation: String(dictation),
        account_id: connection.accountId,
        api_token: token,
      });
      return `${ws}/v1/audio/transcriptions/stream?${q.toString()}`;
    },
  };
}

async function readResponse<T>(res: Response, envelope: 'data' | 'raw' | 'none', who: string): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    const fallback = res.status === 401 ? 'The account id or API key was not accepted.' : `${who} answered ${res.status}.`;
    throw new ApiError(res.status, typeof message === 'string' && message ? message : fallback);
  }
  if (envelope === 'none') return undefined as T;
  if (envelope === 'raw') return body as T;
  return (body as { data: T }).data;
}
