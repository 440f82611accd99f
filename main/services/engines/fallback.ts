/**
 * Failures that degrade instead of stalling. When the engine an account chose (a language-model
 * server, a speech server, a downloaded model) fails, the work is done by the embedded engine and
 * marked so (`generatedBy.fallbackFrom`), unless the account asked to fail instead. An engine whose
 * last call failed moments ago is not waited on again: work goes to the fallback at once until
 * its cool-down has passed (engine-health.ts). Every call's outcome and latency is recorded.
 */
import { DomainError } from '../errors.js';
import type { EngineUsed, GeneratedNote, NoteGenerationInput, NoteWriter } from '../notes/ports.js';
import type { RecognitionOptions, RecognitionResult, SpeechRecognizer } from '../transcriptions/ports.js';
import type { EngineHealth } from './engine-health.js';

/** What an account wants when its chosen engine fails: the embedded engine's work (marked), or a failure. */
export type EngineFailurePolicy = 'embedded' | 'fail';

/** Why an engine failed, in words fit for any account: a domain error's message, never raw internals. */
export function failureReason(err: unknown): string {
  return err instanceof DomainError ? err.message : 'the engine failed';
}

/** The failures that fall back: the engine is down or answers nothing usable. Anything else is the request's own fault. */
const fallsBack = (err: unknown): boolean => err instanceof DomainError && (err.kind === 'engine_unavailable' || err.kind === 'engine_bad_answer');

/** Times `work` and records its outcome under `name`. */
export async function recorded<T>(health: EngineHealth, name: string, work: () => Promise<T>, now: () => number = performance.now.bind(performance)): Promise<T> {
  const started = now();
  try {
    const value = await work();
    health.success(name, now() - started);
    return value;
  } catch (err) {
    if (fallsBack(err)) health.failure(name, failureReason(err), now() - started);
    throw err;
  }
}

export interface FallbackOptions {
  /** The registry name of the chosen engine (health is kept per name). */
  name: string;
  /** The engine and model the chosen one is, for `fallbackFrom`. */
  chosen: EngineUsed;
  health: EngineHealth;
  /** The account's wish, read for each note or recording. */
  policy: () => Promise<EngineFailurePolicy> | EngineFailurePolicy;
}

/**
 * Runs the chosen engine unless the policy allows a fallback and it is known down; answers its
 * result, or why the fallback should run. Under the `fail` policy, or for an error that is not the
 * engine's, the error goes on.
 */
async function tryPrimary<T>(options: FallbackOptions, run: () => Promise<T>): Promise<{ value: T } | { reason: string }> {
  const policy = await options.policy();
  if (policy === 'embedded' && options.health.isDown(options.name)) {
    return { reason: `${options.health.view(options.name).lastFailure ?? 'it failed'} (recently; not tried again yet)` };
  }
  try {
    return { value: await recorded(options.health, options.name, run) };
  } catch (err) {
    if (policy === 'fail' || !fallsBack(err)) throw err;
    return { reason: failureReason(err) };
  }
}

/** A note writer that falls back to `fallback` (the embedded writer) when `primary` fails. */
export function withNoteFallback(primary: NoteWriter, fallback: NoteWriter, fallbackBy: EngineUsed, options: FallbackOptions): NoteWriter {
  return {
    name: primary.name,
    async write(input: NoteGenerationInput): Promise<GeneratedNote> {
      const tried = await tryPrimary(options, () => primary.write(input));
      if ('value' in tried) return tried.value;
      const reason = tried.reason;
      const note = await fallback.write(input);
      return { ...note, generatedBy: { ...fallbackBy, fallbackFrom: { ...options.chosen, reason } } };
    },
  };
}

/** A recogniser that falls back to `fallback` (the embedded recogniser) when `primary` fails on a recording. */
export function withSpeechFallback(primary: SpeechRecognizer, fallback: SpeechRecognizer, options: FallbackOptions): SpeechRecognizer {
  const by = (r: SpeechRecognizer): EngineUsed => ({ engine: r.name, ...(r.model ? { model: r.model } : {}) });
  return {
    ...primary,
    async transcribe(pcm: Int16Array, opts: RecognitionOptions): Promise<RecognitionResult> {
      const tried = await tryPrimary(options, () => primary.transcribe(pcm, opts));
      if ('value' in tried) return tried.value;
      const reason = tried.reason;
      const result = await fallback.transcribe(pcm, opts);
      return { ...result, generatedBy: { ...by(fallback), fallbackFrom: { ...options.chosen, reason } } };
    },
  };
}
