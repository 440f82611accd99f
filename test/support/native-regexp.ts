import { vi } from 'vitest';

/**
 * Runs `work` while watching V8's backtracking regular-expression engine: every `exec` (which
 * `test`, `match`, `replace` and `split` all go through once `exec` is replaced) records its
 * pattern's source. A pattern named in `never` is not run at all but answered "no match", so a
 * regression that hands a catastrophic pattern to V8 is counted here instead of hanging the test
 * worker in a loop no timeout can interrupt. Answers the sources V8 was asked to run.
 */
export async function nativeRegExpRuns(never: readonly string[], work: () => unknown): Promise<string[]> {
  const runs: string[] = [];
  const exec = RegExp.prototype.exec;
  const spy = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    runs.push(this.source);
    return never.includes(this.source) ? null : exec.call(this, input);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return runs;
}
