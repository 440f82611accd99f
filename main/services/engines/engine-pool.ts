/**
 * Loaded engines by name, so the engine for a task can change while Clindoc runs. An engine is
 * created on first use (never at start-up), leased by each recognition, live session or note
 * while it works, and unloaded once nobody has used it for its idle time, so memory stays bounded
 * however many models are installed. A live session holds its lease until it ends: switching the
 * account's engine, or the idle timer, never pulls an engine from under a running session.
 */

/** One use of an engine; `release` exactly once when the work is done. */
export interface Lease<T> {
  instance: T;
  release(): void;
}

export interface EnginePoolDeps<T> {
  /** Builds an engine (cheap checks only: files present); throws when it cannot be built. */
  create(name: string): T;
  /** Loads it for real (the model into memory); a throw means it cannot run. */
  load?(name: string, instance: T): Promise<void>;
  /** Frees it. */
  dispose(name: string, instance: T): Promise<void>;
  /** Milliseconds unused before it is unloaded; 0 keeps it loaded. */
  idleMs(name: string): number;
  now?: () => number;
  /** Runs `fn` after `ms`; returns a canceller (tests drive time themselves). */
  schedule?: (fn: () => void, ms: number) => () => void;
  /** Told when an idle engine was unloaded (a log line). */
  onUnload?(name: string): void;
}

export interface EnginePool<T> {
  acquire(name: string): Lease<T>;
  /** Builds and loads an engine now (and keeps it, subject to its idle time); throws why it cannot run. */
  warm(name: string): Promise<void>;
  /** Whether a recognition, session or note is using it right now. */
  inUse(name: string): boolean;
  /** Names loaded now. */
  loaded(): string[];
  /** Unloads an engine nobody uses (before its files are removed); false when it is in use. */
  unload(name: string): Promise<boolean>;
  close(): Promise<void>;
}

interface Slot<T> {
  instance: T;
  refs: number;
  lastUsed: number;
  cancelTimer?: () => void;
}

const defaultSchedule = (fn: () => void, ms: number): (() => void) => {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

export function createEnginePool<T>(deps: EnginePoolDeps<T>): EnginePool<T> {
  const slots = new Map<string, Slot<T>>();
  const now = deps.now ?? Date.now;
  const schedule = deps.schedule ?? defaultSchedule;

  const drop = async (name: string, slot: Slot<T>): Promise<void> => {
    slot.cancelTimer?.();
    if (slots.get(name) === slot) slots.delete(name);
    await deps.dispose(name, slot.instance);
  };

  const armIdle = (name: string, slot: Slot<T>): void => {
    const idle = deps.idleMs(name);
    if (idle <= 0) return;
    slot.cancelTimer?.();
    slot.cancelTimer = schedule(() => {
      if (slots.get(name) !== slot || slot.refs > 0) return;
      if (now() - slot.lastUsed < idle) return armIdle(name, slot);
      void drop(name, slot).then(() => deps.onUnload?.(name), () => deps.onUnload?.(name));
    }, idle);
  };

  const slotOf = (name: string): Slot<T> => {
    let slot = slots.get(name);
    if (!slot) {
      slot = { instance: deps.create(name), refs: 0, lastUsed: now() };
      slots.set(name, slot);
    }
    return slot;
  };

  const acquire = (name: string): Lease<T> => {
    const slot = slotOf(name);
    slot.refs += 1;
    slot.cancelTimer?.();
    let released = false;
    return {
      instance: slot.instance,
      release: () => {
        if (released) return;
        released = true;
        slot.refs -= 1;
        slot.lastUsed = now();
        if (slot.refs === 0) armIdle(name, slot);
      },
    };
  };

  return {
    acquire,
    async warm(name) {
      const lease = acquire(name);
      try {
        await deps.load?.(name, lease.instance);
      } catch (err) {
        lease.release();
        // A model that cannot load is not kept: the next use builds it afresh.
        const slot = slots.get(name);
        if (slot && slot.refs === 0) await drop(name, slot).catch(() => undefined);
        throw err;
      }
      lease.release();
    },
    inUse: (name) => (slots.get(name)?.refs ?? 0) > 0,
    loaded: () => [...slots.keys()],
    async unload(name) {
      const slot = slots.get(name);
      if (!slot) return true;
      if (slot.refs > 0) return false;
      await drop(name, slot);
      return true;
    },
    async close() {
      for (const [name, slot] of [...slots]) await drop(name, slot).catch(() => undefined);
    },
  };
}
