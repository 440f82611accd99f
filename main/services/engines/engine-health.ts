/**
 * What each engine's recent calls say about it: the last success, the last failure and why, how
 * long the last answer took. Every call through the engine registry is recorded here, and
 * background checks add theirs, so `/v1/engines` shows a server as down before a physician presses
 * a button, and a recording or note does not wait a whole timeout on a server already known down.
 */
import type { EngineHealth as EngineHealthView } from '../../../shared/api/models.js';

export type { EngineHealthView };

export interface EngineHealth {
  /** A call (or a check) that answered, and how long it took. */
  success(name: string, latencyMs: number): void;
  /**
   * A call that failed, with a reason fit for any account to read (no patient data). A failed
   * background check (`check: true`) shows the engine down but does not send work to the fallback:
   * a server may answer completions without answering the check.
   */
  failure(name: string, reason: string, latencyMs?: number, options?: { check?: boolean }): void;
  view(name: string): EngineHealthView;
  /**
   * Down: its last call failed less than `coolDownMs` ago. Work then goes to the fallback at once
   * instead of waiting out another timeout; after the cool-down the engine is tried again.
   */
  isDown(name: string): boolean;
}

export function createEngineHealth(options: { coolDownMs?: number; now?: () => number } = {}): EngineHealth {
  const now = options.now ?? Date.now;
  const coolDownMs = options.coolDownMs ?? 60_000;
  // callFailureAt: the last failure of real work, the only kind that sends work to the fallback.
  const state = new Map<string, { successAt?: number; failureAt?: number; callFailureAt?: number; reason?: string; latencyMs?: number }>();
  const entry = (name: string) => {
    let e = state.get(name);
    if (!e) state.set(name, (e = {}));
    return e;
  };
  const iso = (t: number | undefined): string | null => (t === undefined ? null : new Date(t).toISOString());
  return {
    success(name, latencyMs) {
      const e = entry(name);
      e.successAt = now();
      e.latencyMs = Math.round(latencyMs);
    },
    failure(name, reason, latencyMs, options) {
      const e = entry(name);
      e.failureAt = now();
      if (!options?.check) e.callFailureAt = e.failureAt;
      e.reason = reason;
      if (latencyMs !== undefined) e.latencyMs = Math.round(latencyMs);
    },
    view(name) {
      const e = state.get(name) ?? {};
      const status = e.failureAt === undefined && e.successAt === undefined ? 'unknown'
        : (e.failureAt ?? -Infinity) > (e.successAt ?? -Infinity) ? 'down' : 'up';
      return {
        status, lastSuccessAt: iso(e.successAt), lastFailureAt: iso(e.failureAt), lastFailure: e.reason ?? null,
        latencyMs: e.latencyMs ?? null,
      };
    },
    isDown(name) {
      const e = state.get(name);
      if (!e?.callFailureAt || (e.successAt ?? -Infinity) > e.callFailureAt) return false;
      return now() - e.callFailureAt < coolDownMs;
    },
  };
}
