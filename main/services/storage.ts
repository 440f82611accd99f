/**
 * Storage ports: the only way services reach persisted state. `main/store/` implements them on
 * SQLite and the filesystem; tests may hand in the same real implementations on a temp folder.
 * Every method that reads or changes an account's object takes the account id, so one account
 * can never address another's rows.
 */

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface AccountStore {
  createAccount(account: AccountRecord): void;
  listAccounts(): AccountRecord[];
  getAccount(id: string): AccountRecord | undefined;
  countAccounts(): number;
  insertKey(key: ApiKeyRecord & { hash: string }): void;
  /** The key whose hash matches, revoked or not. */
  findKeyByHash(hash: string): (ApiKeyRecord & { hash: string }) | undefined;
  listKeys(accountId: string): ApiKeyRecord[];
  revokeKey(keyId: string, at: number): boolean;
  touchKey(keyId: string, at: number): void;
  insertStreamToken(token: { hash: string; accountId: string; keyId: string; expiresAt: number }): void;
  findStreamToken(hash: string): { accountId: string; keyId: string; expiresAt: number } | undefined;
  deleteExpiredStreamTokens(now: number): void;
}

export type NoteStatus = 'STATUS_PENDING' | 'STATUS_PROCESSING' | 'STATUS_DONE' | 'STATUS_FAILED';

/** A later addition to a signed note. Patient data (the text). */
export interface NoteAddendum {
  id: string;
  text: string;
  /** Who wrote and signed the addendum. */
  author: string;
  createdAt: number;
}

export interface NoteRecord {
  id: string;
  accountId: string;
  status: NoteStatus;
  /** The creation request as received (validated), JSON. Patient data. */
  request: unknown;
  markdown: string | null;
  json: Record<string, unknown> | null;
  error: string | null;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  /** Starts at 1; every change of the note (edit, signature, addendum) adds one. The ETag. */
  version: number;
  /** When and by whom the note was signed; null while it is a draft. */
  signedAt: number | null;
  signedBy: string | null;
  /** Additions made after signing, oldest first. */
  addenda: NoteAddendum[];
  /** The engine and model that wrote the note (absent before it is written, and for notes older than the record). */
  generatedBy?: { engine: string; model?: string } | null;
}


/** Cursor paging: items newest first; `cursor` is opaque to callers. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface NoteStore {
  insert(note: NoteRecord): void;
  get(accountId: string, id: string): NoteRecord | undefined;
  /** Reads a note regardless of account: for the job runner only. */
  getForJob(id: string): NoteRecord | undefined;
  list(accountId: string, limit: number, cursor?: string): Page<NoteRecord>;
  update(id: string, changes: Partial<Omit<NoteRecord, 'id' | 'accountId' | 'request' | 'createdAt'>>): void;
  delete(accountId: string, id: string): boolean;
}

export interface TemplateRecord {
  id: string;
  accountId: string;
  body: unknown;
  createdAt: number;
  updatedAt: number;
}

/** A JSON document store keyed by (account, id): note templates and the macro library. */
export interface DocumentStore {
  put(record: TemplateRecord): void;
  get(accountId: string, id: string): TemplateRecord | undefined;
  list(accountId: string, limit: number, cursor?: string): Page<TemplateRecord>;
  delete(accountId: string, id: string): boolean;
}

export type TranscriptionStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface TranscriptionRecord {
  id: string;
  accountId: string;
  status: TranscriptionStatus;
  options: Record<string, unknown>;
  audioBlob: string | null;
  audioType: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
}

export interface TranscriptionStore {
  insert(record: TranscriptionRecord): void;
  get(accountId: string, id: string): TranscriptionRecord | undefined;
  getForJob(id: string): TranscriptionRecord | undefined;
  list(accountId: string, limit: number, cursor?: string): Page<TranscriptionRecord>;
  update(id: string, changes: Partial<Omit<TranscriptionRecord, 'id' | 'accountId' | 'createdAt'>>): void;
  delete(accountId: string, id: string): boolean;
}

/** Audio and other large payloads, addressed by an opaque key. */
export interface BlobStore {
  /** Streams `source` into a new blob; rejects with payload_too_large past `maxBytes`. */
  write(source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream, maxBytes: number): Promise<{ key: string; bytes: number }>;
  /** Absolute path of a blob on the local filesystem (engines such as ffmpeg read files). */
  pathOf(key: string): string;
  exists(key: string): boolean;
  delete(key: string): void;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobRecord {
  id: string;
  kind: string;
  accountId: string;
  resourceId: string;
  status: JobStatus;
  attempts: number;
  runAfter: number;
  lastError: string | null;
}

export interface JobStore {
  enqueue(job: { id: string; kind: string; accountId: string; resourceId: string; runAfter: number }): void;
  /** Atomically takes the oldest ready job and marks it running. */
  claim(now: number): JobRecord | undefined;
  finish(id: string, status: 'done' | 'failed', error: string | null): void;
  /**
   * Puts a running job back in the queue (retry, or shutdown before it finished). With
   * `refundAttempt` the claim does not count as an attempt (a full disk is not the job's failure).
   */
  requeue(id: string, runAfter: number, error: string | null, refundAttempt?: boolean): void;
  /** Jobs left `running` by a process that died: back to `queued`. Returns how many. */
  recoverInterrupted(): number;
  get(id: string): JobRecord | undefined;
  /** Jobs queued or running. */
  countOpen(): number;
}

export interface IdempotencyRecord {
  requestHash: string;
  statusCode: number;
  body: string;
  createdAt: number;
}

export interface IdempotencyStore {
  get(accountId: string, key: string): IdempotencyRecord | undefined;
  put(accountId: string, key: string, record: IdempotencyRecord): void;
  purgeOlderThan(time: number): void;
}

export interface WebhookRecord {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: number;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  id: string;
  accountId: string;
  webhookId: string | null;
  url: string;
  secret: string;
  event: string;
  resourceId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

export interface WebhookAttempt {
  deliveryId: string;
  attempt: number;
  at: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookStore {
  insert(webhook: WebhookRecord): void;
  list(accountId: string): WebhookRecord[];
  get(accountId: string, id: string): WebhookRecord | undefined;
  delete(accountId: string, id: string): boolean;
  insertDelivery(delivery: DeliveryRecord): void;
  /** Marks due pending deliveries as delivering and returns them. */
  claimDue(now: number, limit: number): DeliveryRecord[];
  updateDelivery(id: string, changes: { status: DeliveryStatus; attempts?: number; nextAttemptAt?: number }): void;
  recordAttempt(attempt: WebhookAttempt): void;
  listDeliveries(accountId: string, resourceId?: string): DeliveryRecord[];
  listAttempts(deliveryId: string): WebhookAttempt[];
  /** Deliveries left `delivering` by a process that died go back to pending. */
  recoverInterrupted(): number;
}
