/**
 * The one lazy loader of the model engines (ONNX CTC and Whisper recognisers, in-process
 * llama.cpp): nothing is read until the first use, callers side by side share one load, a
 * failed load is reported the same way by every engine (a 503 `engine_unavailable` naming the
 * engine and why, the engine's own DomainError as it is) and forgotten so that the next call
 * tries again (a model folder fixed, a file copied in later), and `release` frees what was loaded.
 */
import { DomainError } from '../../services/errors.js';

export interface LazyModel<T> {
  /** The loaded model, loading it on first use. */
  get(): Promise<T>;
  /** Forgets the model and frees it (once a load in flight has settled); the next `get` loads again. */
  release(): Promise<void>;
}

/**
 * @param what how a failure names the model: `onnx-ctc: the model` -> "onnx-ctc: the model could not be loaded (...)"
 * @param load reads the model; what it throws becomes the 503 (a DomainError passes as it is)
 * @param free releases a loaded model (sessions, native memory)
 */
export function lazyModel<T>(what: string, load: () => Promise<T>, free: (model: T) => Promise<void> | void): LazyModel<T> {
  let loading: Promise<T> | undefined;
  return {
    async get(): Promise<T> {
      const current = (loading ??= load());
      try {
        return await current;
      } catch (err) {
        if (loading === current) loading = undefined;
        throw loadFailure(what, err);
      }
    },
    async release(): Promise<void> {
      const current = loading;
      loading = undefined;
      if (!current) return;
      const model = await current.catch(() => undefined);
      if (model !== undefined) await free(model);
    },
  };
}

/** A load failure as every model engine reports it; the runtime's message is cut short (it names files, not patient data). */
export function loadFailure(what: string, err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const why = err instanceof Error ? err.message.slice(0, 200) : 'unknown error';
  return new DomainError('engine_unavailable', `${what} could not be loaded (${why})`, { cause: err });
}
