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
  /** Holds the operator role (installation-wide actions); absent means false. */
  operator?: boolean;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface AccountStore {
  createAccount(account: AccountRecord): Promise<void>;
  listAccounts(): Promise<AccountRecord[]>;
  getAccount(id: string): Promise<AccountRecord | undefined>;
  countAccounts(): Promise<number>;
  /** Grants or withdraws the operator role; false when there is no such account. */
  setOperator(id: string, operator: boolean): Promise<boolean>;
  insertKey(key: ApiKeyRecord & { hash: string }): Promise<void>;
  /** The key whose hash matches, revoked or not. */
  findKeyByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | undefined>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  revokeKey(keyId: string, at: number): Promise<boolean>;
  touchKey(keyId: string, at: number): Promise<void>;
  insertStreamToken(token: { hash: string; accountId: string; keyId: string; expiresAt: number }): Promise<void>;
  findStreamToken(hash: string): Promise<{ accountId: string; keyId: string; expiresAt: number } | undefined>;
  deleteExpiredStreamTokens(now: number): Promise<void>;
}

/** A later addition to a signed note. Patient data (the text). */
export interface NoteAddendum {
  id: string;
  text: string;
  /** Who wrote and signed the addendum. */
  author: string;
  createdAt: number;
}

/** Where the job writing a note stands. */
export type NoteStatus = 'STATUS_PENDING' | 'STATUS_PROCESSING' | 'STATUS_DONE' | 'STATUS_FAILED';

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
  generatedBy?: { engine: string; model?: string; fallbackFrom?: { engine: string; model?: string; reason: string } } | null;
}

/** Cursor paging: items newest first; `cursor` is opaque to callers. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What a conditional note write requires of the stored row. */
export interface NoteWriteCondition {
  /** The stored version is this one (an edit made from what the caller read). */
  version?: number;
  /** The stored status is one of these (a job's final write lands only on an unfinished note). */
  statusIn?: readonly NoteStatus[];
}

/** What the stores of resources a job works on (notes, transcriptions) share: rows scoped by account. */
export interface ResourceStore<T> {
  insert(record: T): Promise<void>;
  get(accountId: string, id: string): Promise<T | undefined>;
  /** Reads a record regardless of account: for the job runner only. */
  getForJob(id: string): Promise<T | undefined>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<T>>;
  delete(accountId: string, id: string): Promise<boolean>;
}

export interface NoteStore extends ResourceStore<NoteRecord> {
  /**
   * Applies `changes`; with `only`, only while the stored note meets it. The check and the write
   * are one conditional statement, so of two racing changes the second sees the first's result
   * and writes nothing. True when a note was written.
   */
  update(
    id: string, changes: Partial<Omit<NoteRecord, 'id' | 'accountId' | 'request' | 'createdAt'>>, only?: NoteWriteCondition, announce?: Announcement,
  ): Promise<boolean>;
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
  /**
   * Writes a document (a replacement keeps its createdAt). With `only: 'new'` it writes only when
   * the id is not taken, with `only: 'existing'` only when it is, each one conditional write so
   * two racing requests cannot both succeed. True when written.
   */
  put(record: TemplateRecord, only?: 'new' | 'existing'): Promise<boolean>;
  get(accountId: string, id: string): Promise<TemplateRecord | undefined>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<TemplateRecord>>;
  delete(accountId: string, id: string): Promise<boolean>;
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

export interface TranscriptionStore extends ResourceStore<TranscriptionRecord> {
  /**
   * Applies `changes`; with `only.statusIn`, only while the stored status is one of those, checked
   * by the statement that writes. True when a transcription was written.
   */
  update(
    id: string, changes: Partial<Omit<TranscriptionRecord, 'id' | 'accountId' | 'createdAt'>>, only?: { statusIn?: readonly TranscriptionStatus[] },
    announce?: Announcement,
  ): Promise<boolean>;
}

/** Audio and other large payloads, addressed by an opaque key. */
export interface BlobStore {
  /** Streams `source` into a new blob; rejects with payload_too_large past `maxBytes`. */
  write(source: AsyncIterable<Uint8Array> | NodeJS.ReadableStream, maxBytes: number): Promise<{ key: string; bytes: number }>;
  /** Absolute path of a blob on the local filesystem (engines such as ffmpeg read files). */
  pathOf(key: string): string;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
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
  enqueue(job: { id: string; kind: string; accountId: string; resourceId: string; runAfter: number }): Promise<void>;
  /** Atomically takes the oldest ready job and marks it running. */
  claim(now: number): Promise<JobRecord | undefined>;
  finish(id: string, status: 'done' | 'failed', error: string | null): Promise<void>;
  /**
   * Puts a running job back in the queue (retry, or shutdown before it finished). With
   * `refundAttempt` the claim does not count as an attempt (a full disk is not the job's failure).
   */
  requeue(id: string, runAfter: number, error: string | null, refundAttempt?: boolean): Promise<void>;
  /** Jobs left `running` by a process that died: back to `queued`. Returns how many. */
  recoverInterrupted(): Promise<number>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Jobs queued or running. */
  countOpen(): Promise<number>;
}

export interface IdempotencyRecord {
  requestHash: string;
  /** The first answer's status; `IDEMPOTENCY_PENDING` (0) while the first request is still running. */
  statusCode: number;
  body: string;
  createdAt: number;
}

/** `statusCode` of a key whose first request holds it and has not answered yet. */
export const IDEMPOTENCY_PENDING = 0;

export interface IdempotencyStore {
  get(accountId: string, key: string): Promise<IdempotencyRecord | undefined>;
  put(accountId: string, key: string, record: IdempotencyRecord): Promise<void>;
  /**
   * Takes a key for a request about to run, in one conditional write, so that API instances sharing
   * the database run a request once: true when nothing stands under the key, or what stands is a
   * claim older than `staleBefore.pending` (its process died) or an answer older than
   * `staleBefore.answered` (past keeping); false when another request holds it or has answered.
   */
  claim(accountId: string, key: string, claim: { requestHash: string; createdAt: number }, staleBefore: { pending: number; answered: number }): Promise<boolean>;
  /** Gives back a claim that produced no answer to keep (the request failed), so a retry runs afresh. */
  release(accountId: string, key: string, createdAt: number): Promise<void>;
  /**
   * Gives back every claim still pending, for a store that one process owns (SQLite), at its start:
   * a claim left by the run before it (quit or killed mid-request) would otherwise hold its key for
   * ten minutes. A store shared by instances has none: there a dead instance's claim goes stale.
   */
  abandonClaims?(): Promise<number>;
  purgeOlderThan(time: number): Promise<void>;
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

/**
 * A webhook event to write with the change that causes it (the outbox, issue 29): an update given
 * one writes the event in the same transaction only when the update itself writes, so a process
 * that dies after a note's final write still leaves its event, and a write that did not land leaves none.
 */
export interface Announcement {
  event: string;
  /** A per-request webhook URL (a transcription's `webhookUrl`). */
  requestUrl?: string;
}

/** An event in the outbox, waiting to become deliveries. */
export interface OutboxEvent {
  id: string;
  accountId: string;
  event: string;
  resourceId: string;
  requestUrl: string | null;
  createdAt: number;
}

export interface WebhookStore {
  insert(webhook: WebhookRecord): Promise<void>;
  list(accountId: string): Promise<WebhookRecord[]>;
  get(accountId: string, id: string): Promise<WebhookRecord | undefined>;
  delete(accountId: string, id: string): Promise<boolean>;
  insertDelivery(delivery: DeliveryRecord): Promise<void>;
  /** Marks due pending deliveries as delivering and returns them. */
  claimDue(now: number, limit: number): Promise<DeliveryRecord[]>;
  updateDelivery(id: string, changes: { status: DeliveryStatus; attempts?: number; nextAttemptAt?: number }): Promise<void>;
  recordAttempt(attempt: WebhookAttempt): Promise<void>;
  listDeliveries(accountId: string, resourceId?: string): Promise<DeliveryRecord[]>;
  listAttempts(deliveryId: string): Promise<WebhookAttempt[]>;
  /**
   * Deliveries left `delivering` by a process that died go back to pending; with `claimedBefore`,
   * only those claimed before that time (ms), so a sender whose lease only blinked, still within its
   * attempt's timeout, is not doubled.
   */
  recoverInterrupted(options?: { claimedBefore?: number }): Promise<number>;
  /** The oldest events in the outbox. */
  takeOutbox(limit: number): Promise<OutboxEvent[]>;
  /**
   * Turns an outbox event into its deliveries: removes the event and stores the deliveries in one
   * transaction, only if the event was still there (of two dispatchers draining together, one
   * fans out). True when this call did.
   */
  fanOut(eventId: string, deliveries: DeliveryRecord[]): Promise<boolean>;
}
