/**
 * Who goes first on the recogniser's threads: live dictation before batch transcription.
 *
 * Live dictation and batch uploads share one small set of recogniser threads (one per core).
 * A physician waiting for the words just spoken notices 300 ms; a batch job nobody watches does
 * not notice it at all. So:
 * - a waiting live call starts before a waiting batch call;
 * - while any live session is open, batch work holds at most `batchSlotsWhileLive` threads
 *   (default all but one), so a live call finds a thread free instead of waiting for a batch
 *   call to finish; with no live session, batch uses every thread;
 * - batch is never starved: a batch call that has waited `maxBatchWaitMs` goes before live calls
 *   at the next free thread (many sessions can keep every thread busy);
 * - within a class, calls start in the order they were submitted.
 * Batch work is cut into short calls by the engine, so "between calls" is where live preempts it.
 *
 * Pure: no timers, no threads. The engine's pool submits calls, asks which may start
 * (`take`), and says when each finishes; the clock is handed in, so tests move time by hand.
 */

/** A recogniser call's class: live dictation (someone is waiting) or batch transcription. */
export type WorkClass = 'live' | 'batch';

export interface WorkSchedulingPolicy {
  /** Calls running at once (recogniser threads), at least 1. */
  slots: number;
  /**
   * Threads batch calls may hold while a live session is open; default `slots - 1`, at least 1
   * (with one thread, live calls still go first between batch calls).
   */
  batchSlotsWhileLive?: number;
  /** A batch call that has waited this long starts before waiting live calls, ms. Default 2000. */
  maxBatchWaitMs?: number;
}

/** Default wait after which a batch call goes before live calls: long beside a live call (10-50 ms), short beside a batch job. */
export const DEFAULT_MAX_BATCH_WAIT_MS = 2000;

/** What the policy looks at. */
export interface SchedulingState {
  running: Readonly<Record<WorkClass, number>>;
  waiting: Readonly<Record<WorkClass, number>>;
  /** Submission time of the oldest waiting batch call (ms, the scheduler's clock), when one waits. */
  oldestBatchSince?: number;
  /** Live sessions open now (each will submit calls soon, even when none is waiting). */
  liveSessions: number;
}

/** Most batch calls that may run at once in this state. */
export function batchCap(policy: WorkSchedulingPolicy, liveSessions: number): number {
  const slots = Math.max(1, Math.floor(policy.slots));
  if (liveSessions <= 0) return slots;
  const whileLive = policy.batchSlotsWhileLive ?? slots - 1;
  return Math.min(slots, Math.max(1, Math.floor(whileLive)));
}

/** The class whose oldest waiting call should start now, or null when none may. */
export function nextClass(policy: WorkSchedulingPolicy, state: SchedulingState, now: number): WorkClass | null {
  const slots = Math.max(1, Math.floor(policy.slots));
  if (state.running.live + state.running.batch >= slots) return null;
  const batchMay = state.waiting.batch > 0 && state.running.batch < batchCap(policy, state.liveSessions);
  const overdue = batchMay && state.oldestBatchSince !== undefined && now - state.oldestBatchSince >= (policy.maxBatchWaitMs ?? DEFAULT_MAX_BATCH_WAIT_MS);
  if (overdue) return 'batch';
  if (state.waiting.live > 0) return 'live';
  return batchMay ? 'batch' : null;
}

export interface WorkScheduler<T> {
  /** Queues a call of class `cls`. */
  submit(cls: WorkClass, job: T): void;
  /** The calls that may start now, in start order; each counts as running until `finished`. */
  take(): Array<{ cls: WorkClass; job: T }>;
  /** A running call of class `cls` has finished (or failed). */
  finished(cls: WorkClass): void;
  /** A live session opened; returns its close, which is safe to call twice. */
  openLive(): () => void;
  readonly running: Readonly<Record<WorkClass, number>>;
  readonly waiting: Readonly<Record<WorkClass, number>>;
  readonly liveSessions: number;
}

/** Creates the scheduler; `now` is its clock (ms). */
export function createWorkScheduler<T>(policy: WorkSchedulingPolicy, now: () => number): WorkScheduler<T> {
  const queues: Record<WorkClass, Array<{ job: T; since: number }>> = { live: [], batch: [] };
  const running: Record<WorkClass, number> = { live: 0, batch: 0 };
  let liveSessions = 0;

  const state = (): SchedulingState => ({
    running,
    waiting: { live: queues.live.length, batch: queues.batch.length },
    ...(queues.batch.length ? { oldestBatchSince: queues.batch[0]!.since } : {}),
    liveSessions,
  });

  return {
    submit(cls, job) {
      queues[cls].push({ job, since: now() });
    },
    take() {
      const out: Array<{ cls: WorkClass; job: T }> = [];
      const t = now();
      for (let cls = nextClass(policy, state(), t); cls; cls = nextClass(policy, state(), t)) {
        running[cls]++;
        out.push({ cls, job: queues[cls].shift()!.job });
      }
      return out;
    },
    finished(cls) {
      if (running[cls] > 0) running[cls]--;
    },
    openLive() {
      liveSessions++;
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        liveSessions--;
      };
    },
    get running() {
      return { ...running };
    },
    get waiting() {
      return { live: queues.live.length, batch: queues.batch.length };
    },
    get liveSessions() {
      return liveSessions;
    },
  };
}
