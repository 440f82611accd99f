import { execFileSync } from 'node:child_process';

/** Whether a command (ffmpeg, espeak-ng, chromium…) is on the PATH: scripts and tests skip with a clear line when not. */
export function hasCommand(cmd: string): boolean {
  try {
    execFileSync('which', [cmd], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
