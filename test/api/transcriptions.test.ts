import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { speechWav, wavBytes } from '../support/audio.js';

describe('V2 batch transcription over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_MAX_AUDIO_BYTES: String(2 * 1024 * 1024) });
  });
  afterAll(() => s.close());

  const finished = (id: string) =>
    waitFor(async () => {
      const body = await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).json();
      return body.status === 'completed' || body.status === 'failed' ? body : undefined;
    }, 60_000, 100);

  it('transcribes uploaded speech (multipart) and shows the V2 record and the v1 view', async () => {
    const { bytes } = speechWav('hello world. one two three four five six seven eight nine ten.');
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(bytes)], { type: 'audio/wav' }), 'visit.wav');
    form.append('language', 'en');
    form.append('diarization', 'false');
    const { 'content-type': _ct, ...headers } = s.headers();
    const res = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers, body: form });
    expect(res.status).toBe(202);
    const accepted = await res.json();
    expect(accepted).toEqual({ id: expect.any(String), status: 'pending', created_at: expect.any(String), updated_at: expect.any(String) });
    const record = await finished(accepted.id);
    expect(record.status).toBe('completed');
    expect(record.text.length).toBeGreaterThan(0);
    expect(record.words.length).toBeGreaterThan(2);
    expect(record.duration).toBeGreaterThan(1);
    for (const w of record.words) {
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    // Synthetic speech is hard for pocketsphinx (see README); counting words is the stable check.
    const digits = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect(record.words.filter((w: { word: string }) => digits.includes(w.word)).length).toBeGreaterThanOrEqual(3);
    const v1 = await (await fetch(`${s.base}/v1/audio/transcriptions/${accepted.id}`, { headers: s.headers() })).json();
    expect(v1.status).toBe('ok');
    expect(v1.data.payload.transcription).toBe(record.text);
    expect(v1.data.timestamp.complete).toBeGreaterThanOrEqual(v1.data.timestamp.start);
  });

  it('completes silence with empty text and fails corrupt audio with a clear error', async () => {
    const upload = async (body: Uint8Array<ArrayBuffer>) =>
      (await (await fetch(`${s.base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body })).json()).id as string;
    const silent = await finished(await upload(wavBytes(2)));
    expect(silent.status).toBe('completed');
    expect(silent.text).toBe('');
    const corrupt = await finished(await upload(new Uint8Array(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(2000, 7)]))));
    expect(corrupt.status).toBe('failed');
    expect(corrupt.error).toMatch(/audio|decode/i);
  });

  it('answers 415 for unsupported types and 413 over the size limit', async () => {
    const text = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'text/plain' }), body: 'hello' });
    expect(text.status).toBe(415);
    const big = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: new Uint8Array(3 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect((await big.json()).error).toBe(413);
  });

  it('deletes the record and its audio blob', async () => {
    const id = (await (await fetch(`${s.base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(0.5) })).json()).id;
    await finished(id);
    const blobs = join(s.dataDir, 'blobs');
    const before = readdirSync(blobs).length;
    expect((await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { method: 'DELETE', headers: s.headers() })).status).toBe(200);
    expect(readdirSync(blobs).length).toBe(before - 1);
    expect((await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).status).toBe(404);
    expect(existsSync(blobs)).toBe(true);
  });

  it('accepts one upload when its retry (same Idempotency-Key) arrives while the first is still being stored', async () => {
    const body = wavBytes(2, 16000, 300);
    const send = (): Promise<Response> =>
      fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav', 'Idempotency-Key': 'upload-sent-twice' }), body });
    const [first, retry] = await Promise.all([send(), send()]);
    expect([first.status, retry.status]).toEqual([202, 202]);
    const ids = [((await first.json()) as { id: string }).id, ((await retry.json()) as { id: string }).id];
    expect(ids[1]).toBe(ids[0]);
    expect([first.headers.get('idempotent-replayed'), retry.headers.get('idempotent-replayed')].filter(Boolean)).toEqual(['true']);
    await finished(ids[0]!);
  });
});
