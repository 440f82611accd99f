import type { Page } from '../storage.js';

/** What a trail entry says. Identifiers and outcomes only: never transcript, note or audio content. */
export interface AuditEvent {
  id: string;
  /** Milliseconds since the Unix epoch. */
  at: number;
  /** Account that acted (null when the caller could not be authenticated). */
  accountId: string | null;
  /** API key id behind the request (a streaming token resolves to its issuing key). */
  keyId: string | null;
  /** `api-key`, `anonymous`, or `system:<job>` for background work such as retention. */
  actor: string;
  /** `authenticate` marks a lockout after repeated wrong keys (outcome `locked`); the keys tried are never kept. */
  action: 'read' | 'list' | 'write' | 'delete' | 'authenticate' | 'sign' | 'amend';
  resourceType: 'note' | 'transcription' | 'note_template' | 'macro' | 'webhook' | 'audio' | 'account' | 'backup' | 'visit';
  resourceId: string | null;
  /** OpenAPI operationId, when the event came from a request. */
  operation: string | null;
  /** Remote address of the request. */
  ip: string | null;
  outcome: 'success' | 'denied' | 'not_found' | 'rejected' | 'error' | 'locked';
  status: number | null;
  requestId: string | null;
  /** The name a note was signed with (`sign`), or an addendum's author (`amend`); null otherwise. */
  signer?: string | null;
}

export interface AuditFilter {
  resourceId?: string;
  /** Only events at or after this time (ms). */
  since?: number;
}

/** Append-only storage of the trail: there is no update and no delete. */
export interface AuditStore {
  /** Resolves once the event is taken; an adapter may write it in a batch, but `list` always sees it. */
  append(event: AuditEvent): Promise<void>;
  /** An account's events, newest first. */
  list(accountId: string, limit: number, cursor?: string, filter?: AuditFilter): Promise<Page<AuditEvent>>;
}

/** An item the retention sweep must delete. */
export interface ExpiredItem {
  type: 'note' | 'transcription' | 'visit';
  accountId: string;
  id: string;
  audioBlob: string | null;
}

/** Per-account retention settings and the query that finds what has outlived them. */
export interface RetentionStore {
  /** The account's own retention in days; null when it follows the default. */
  getRetentionDays(accountId: string): Promise<number | null>;
  /** Sets (or with null clears) the account's retention in days; 0 keeps everything. */
  setRetentionDays(accountId: string, days: number | null): Promise<void>;
  /**
   * Notes and transcriptions created before their account's retention cut-off at `now`.
   * Accounts without a setting use `defaultDays`; 0 days means keep.
   */
  findExpired(now: number, defaultDays: number, limit: number): Promise<ExpiredItem[]>;
}
