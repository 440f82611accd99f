/**
 * Port of the compute pool: CPU-bound work (text-to-JSON, coding analysis, embedded note and style
 * writing, macro detection) runs away from the thread that answers requests and live dictation,
 * each task under a time budget. The adapter (worker threads) is chosen by the composition;
 * services never see threads.
 */

/** The tasks a pool runs, by name; their arguments and answers are structured-cloneable. */
export const COMPUTE_TASKS = ['extract', 'detectMacros', 'analyzeText', 'analyzeNote', 'writeNote', 'createTemplate'] as const;
export type ComputeTask = (typeof COMPUTE_TASKS)[number];

/** What a task may ask of the main thread while it runs (its time there is not counted against the budget). */
export const HOST_CALLS = ['languageModel.complete', 'notes.get'] as const;
export type HostCall = (typeof HOST_CALLS)[number];

export interface ComputePool {
  /**
   * Runs `task` with `args` on a free worker (waiting for one while all are busy). Rejects with the
   * task's own DomainError, with a 422 `work_over_budget` when it computed longer than the budget
   * (that worker is replaced), or a 503 with Retry-After when too many tasks are already waiting.
   */
  run(task: ComputeTask, args: unknown[]): Promise<unknown>;
  /**
   * Starts a worker now, when none runs, and has it load what `tasks` need before it takes work:
   * the first note after a start then waits for no worker (the desktop writes notes soon after it opens).
   */
  prepare(tasks: ComputeTask[]): void;
  /** Replaces every worker once its current task ends (a new ICD-10-CM edition was imported). */
  recycle(): void;
  close(): Promise<void>;
}
