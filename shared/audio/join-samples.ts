/**
 * Audio gathered in small pieces (the microphone's callbacks, the socket's messages) laid end to
 * end in one array, which the stream message or the recogniser takes whole. Pure code, so the
 * renderer's live dictation and the local API's utterance buffer share it.
 */

/** Copies `parts` one after another into `out`, sized by the caller to their total length, and returns it. */
export function joinSamples<T extends Float32Array | Int16Array>(out: T, parts: readonly ArrayLike<number>[]): T {
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
