import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { markedWav } from './helpers.js';

/**
 * Zip-bomb-like audio: a few hundred KB of compressed silence that expands to far more PCM than
 * the device should hold, many channels, and WAV headers that lie about their size. Uploads are
 * accepted or refused with 4xx; processing fails with a clear error instead of exhausting memory.
 */
describe('hostile audio', () => {
  let s: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-bomb-'));
  beforeAll(async () => {
    s = await startServer({ CLINDOC_MAX_AUDIO_SECONDS: '300' });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = async (body: Uint8Array<ArrayBuffer>, type: string, query = '?diarization=false') => {
    const res = await fetch(`${s.base}/v2/audio/transcriptions${query}`, { method: 'POST', headers: s.headers({ 'content-type': type }), body });
    return { status: res.status, json: (await res.json()) as { id: string } };
  };
  const finished = (id: string) =>
    waitFor(async () => {
      const r = (await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).json()) as { status: string; error: string | null };
      return r.status === 'completed' || r.status === 'failed' ? r : undefined;
    }, 60_000);

  it('refuses compressed silence that would decode to hours of PCM, and stays responsive', async () => {
    const bomb = join(dir, 'bomb.flac');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '1800', '-c:a', 'flac', '-y', bomb]);
    const bytes = new Uint8Array(readFileSync(bomb));
    expect(bytes.length).toBeLessThan(2_000_000); // 30 minutes in well under 2 MB
    const accepted = await upload(bytes, 'audio/flac');
    expect(accepted.status).toBe(202);
    const [result, health] = await Promise.all([finished(accepted.json.id), fetch(`${s.base}/healthz`)]);
    expect(health.status).toBe(200);
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/longer than/);
  });

  it('refuses many-channel bombs when channels are kept for diarization', async () => {
    const bomb = join(dir, 'wide.flac');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=7.1', '-t', '120', '-c:a', 'flac', '-y', bomb]);
    const accepted = await upload(new Uint8Array(readFileSync(bomb)), 'audio/flac', '?diarization=true');
    expect(accepted.status).toBe(202);
    const result = await finished(accepted.json.id);
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/longer than/);
  });

  it('handles WAV headers that lie about their length', async () => {
    const wav = Buffer.from(markedWav('LIE', 1));
    wav.writeUInt32LE(0xffffffff, 4);
    wav.writeUInt32LE(0xfffffff0, 40);
    const accepted = await upload(new Uint8Array(wav), 'audio/wav');
    expect(accepted.status).toBe(202);
    const result = await finished(accepted.json.id);
    expect(['completed', 'failed']).toContain(result.status);
    const truncated = await upload(markedWav('LIE', 1).slice(0, 30), 'audio/wav');
    expect(truncated.status).toBe(202);
    expect((await finished(truncated.json.id)).status).toBe('failed');
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  });
});
