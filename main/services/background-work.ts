/**
 * What a service hands the background machinery (main/jobs): the jobs it owns and the state its
 * webhook events re-read. The composition registers what each service exposes; the queue and the
 * webhook dispatcher never need to know which service a kind or an event belongs to.
 */

/** Queues a job; resolves once it is stored. */
export type Enqueue = (kind: string, accountId: string, resourceId: string) => Promise<void>;

/** A kind of job a service owns: how to run one, and what to do once the queue gives up on it. */
export interface ServiceJob {
  kind: string;
  run(resourceId: string): Promise<void>;
  /** Called when the queue gives up on a job (attempts exhausted); the job is marked failed once it resolves. */
  giveUp(resourceId: string, message: string): void | Promise<void>;
}

/** The current status of the object an event is about; undefined once it is deleted (its events are then not delivered). */
export type ResourceState = (accountId: string, resourceId: string) => Promise<{ status: string } | undefined>;

/**
 * The state a webhook re-reads before each delivery attempt, for the events of one subject: the
 * part of the event name before the dot (`note_generation` for `note_generation.succeeded`).
 */
export interface WebhookSubject {
  subject: string;
  state: ResourceState;
}

/** The webhook subject whose state is the status of the record a store holds (nothing once it is deleted). */
export function storedStatus(subject: string, store: { get(accountId: string, id: string): Promise<{ status: string } | undefined> }): WebhookSubject {
  return {
    subject,
    state: async (accountId, id) => {
      const record = await store.get(accountId, id);
      return record ? { status: record.status } : undefined;
    },
  };
}

/** The subject of an event name: `note_generation.succeeded` is about `note_generation`. */
export function subjectOf(event: string): string {
  const dot = event.indexOf('.');
  return dot < 0 ? event : event.slice(0, dot);
}
