import { wavFile } from '../support/audio.js';

export { filesUnder, filesContaining } from '../support/files.js';

/** Headers for an account's REST calls. */
export const authHeaders = (account: { accountId: string; apiKey: string }, extra: Record<string, string> = {}): Record<string, string> => ({
  'X-API-KEY': account.apiKey, 'X-ACCOUNT-ID': account.accountId, 'content-type': 'application/json', ...extra,
});

/** A valid 16 kHz mono WAV whose sample bytes spell `marker` repeatedly (a stand-in for a recording). */
export function markedWav(marker: string, seconds = 0.5): Uint8Array<ArrayBuffer> {
  const sampleRate = 16000;
  const data = Buffer.alloc(Math.round(seconds * sampleRate) * 2);
  const m = Buffer.from(marker, 'utf8');
  for (let i = 0; i + m.length <= data.length; i += m.length * 4) m.copy(data, i);
  return wavFile(data, sampleRate);
}
