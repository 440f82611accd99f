import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { connect, createAudio, DIGITS_TEXT, DIGIT_WORDS, ffmpegChildren, startStreaming, timingProblems, type Audio, type Client, type StreamingServer, type Transcript } from './helpers.js';
import { waitFor } from '../support/server.js';

const digitHits = (text: string): string[] => text.toLowerCase().replace(/[^a-z ]/g, ' ').split(/\s+/).filter((w) => DIGIT_WORDS.includes(w));

/** Opens a session, waits for `connected`, sends the audio then CloseStream, and waits for the close. */
async function transcribe(client: Client, bytes: Buffer, chunk: number): Promise<number> {
  await client.next((m) => m.type === 'status' && m.status === 'connected');
  client.sendAudio(bytes, chunk);
  client.sendJson({ type: 'CloseStream' });
  return client.closed;
}

describe('live transcription socket', () => {
  let s: StreamingServer;
  let audio: Audio;
  let wav: string;
  let pcm: Buffer;
  let seconds: number;

  beforeAll(async () => {
    audio = createAudio();
    wav = audio.speak('digits', DIGITS_TEXT);
    pcm = audio.encode(wav, 'digits.raw', ['-f', 's16le', '-ar', '16000', '-ac', '1']);
    seconds = pcm.length / 32000;
    s = await startStreaming();
  });
  afterAll(async () => {
    await s?.close();
    audio?.cleanup();
  });

  it('streams linear16 speech: connected first, partials then a final, disconnected last, close 1000', async () => {
    const c = connect(s.url('encoding=linear16&sample_rate=16000'), s.keyHeaders());
    expect(await transcribe(c, pcm, 3200)).toBe(1000);
    const types = c.messages.map((m) => (m.type === 'transcript' ? ((m as Transcript).is_final ? 'final' : 'partial') : String(m.status ?? m.type)));
    expect(types[0]).toBe('connected');
    expect(types[types.length - 1]).toBe('disconnected');
    expect(c.errors()).toEqual([]);
    const firstPartial = types.indexOf('partial');
    expect(firstPartial).toBeGreaterThan(0);
    expect(types.indexOf('final', firstPartial)).toBeGreaterThan(firstPartial);
    expect(types[types.length - 2]).toBe('final'); // nothing is left unfinished
    const finals = c.transcripts().filter((t) => t.is_final);
    for (const t of c.transcripts()) {
      expect(t.isFinal).toBe(t.is_final);
      expect(Number.isNaN(Date.parse(t.timestamp))).toBe(false);
      expect(timingProblems(t, seconds)).toEqual([]);
      for (const w of t.words) expect(typeof w.punctuated_word).toBe('string');
    }
    const text = finals.map((t) => t.text).join(' ');
    expect(digitHits(text).length).toBeGreaterThanOrEqual(4);
    // Finals tile the session's audio in order, from 0 to (about) its end.
    expect(finals[0]!.audio_start).toBe(0);
    for (let i = 1; i < finals.length; i++) expect(finals[i]!.audio_start).toBeCloseTo(finals[i - 1]!.audio_end, 3);
    // Speech starts after 0.5 s of silence: no word may be placed before it.
    const words = finals.flatMap((t) => t.words);
    expect(words[0]!.start).toBeGreaterThan(0.3);
  });

  it('accepts a temporary token in the query and in the X-API-TOKEN header', async () => {
    const res = await fetch(`${s.app.base}/v1/audio/transcriptions/stream/token`, { method: 'POST', headers: s.app.headers() });
    const { token } = (await res.json()) as { token: string };
    expect(token).toBeTruthy();
    const viaQuery = connect(s.url(`api_token=${encodeURIComponent(token)}&account_id=${s.app.creds.accountId}`));
    await viaQuery.next((m) => m.status === 'connected');
    viaQuery.sendJson({ type: 'KeepAlive' });
    viaQuery.sendJson({ type: 'CloseStream' });
    expect(await viaQuery.closed).toBe(1000);
    expect(viaQuery.messages.map((m) => m.status)).toEqual(['connected', 'disconnected']);
    const viaHeader = connect(s.url(), { 'X-API-TOKEN': token, 'X-ACCOUNT-ID': s.app.creds.accountId });
    await viaHeader.next((m) => m.status === 'connected');
    viaHeader.ws.close();
    expect(await viaHeader.closed).toBe(1005);
  });

  it('decodes mulaw at 8 kHz', async () => {
    const mulaw = audio.encode(wav, 'digits.mulaw', ['-f', 'mulaw', '-ar', '8000', '-ac', '1']);
    const c = connect(s.url('encoding=mulaw&sample_rate=8000'), s.keyHeaders());
    expect(await transcribe(c, mulaw, 800)).toBe(1000);
    expect(c.errors()).toEqual([]);
    const finals = c.transcripts().filter((t) => t.is_final);
    // Narrowband audio is hard for the engine, so check what decoding decides: the words sit
    // where the speech is (after 0.5 s of silence, ending before the last 0.5 s).
    const words = finals.flatMap((t) => t.words);
    expect(words.length).toBeGreaterThanOrEqual(4);
    expect(words[0]!.start).toBeGreaterThan(0.3);
    expect(words[words.length - 1]!.end).toBeGreaterThan(seconds - 1.5);
    expect(words[words.length - 1]!.end).toBeLessThan(seconds);
  });

  it('decodes WebM/Opus as a browser records it, and WAV, with no encoding, and leaves no ffmpeg behind', async () => {
    const webm = audio.encode(wav, 'digits.webm', ['-c:a', 'libopus', '-b:a', '32k', '-f', 'webm']);
    const wavBytes = readFileSync(wav);
    for (const bytes of [webm, wavBytes]) {
      const c = connect(s.url(), s.keyHeaders());
      expect(await transcribe(c, bytes, 2000)).toBe(1000);
      expect(c.errors()).toEqual([]);
      const finals = c.transcripts().filter((t) => t.is_final);
      expect(digitHits(finals.map((t) => t.text).join(' ')).length).toBeGreaterThanOrEqual(4);
      for (const t of finals) expect(timingProblems(t, seconds + 0.1)).toEqual([]);
    }
    await waitFor(async () => (ffmpegChildren().length === 0 ? true : undefined), 5000);
  });

  it('kills the session ffmpeg when the client vanishes mid-stream', async () => {
    const webm = audio.encode(wav, 'cut.webm', ['-c:a', 'libopus', '-f', 'webm']);
    const c = connect(s.url(), s.keyHeaders());
    await c.next((m) => m.status === 'connected');
    c.sendAudio(webm.subarray(0, webm.length >> 1), 1000);
    await waitFor(async () => (ffmpegChildren().length > 0 ? true : undefined), 5000);
    c.ws.terminate();
    await waitFor(async () => (ffmpegChildren().length === 0 && s.handle.activeSessions() === 0 ? true : undefined), 5000);
  });

  // Also checks word times of a second utterance in one session (see the report on the engine).
  it('answers Finalize with a final for what was sent, and the session goes on', async () => {
    const c = connect(s.url('encoding=linear16'), s.keyHeaders());
    await c.next((m) => m.status === 'connected');
    const half = pcm.subarray(0, 32000 * 2); // "hello world. one two..." without a pause long enough to end it
    c.sendAudio(half, 3200);
    c.sendJson({ type: 'Finalize' });
    const final = (await c.next((m) => m.type === 'transcript' && (m as Transcript).is_final)) as Transcript;
    expect(final.audio_end).toBeCloseTo(2, 1);
    c.sendAudio(pcm.subarray(half.length), 3200);
    c.sendJson({ type: 'CloseStream' });
    expect(await c.closed).toBe(1000);
    const finals = c.transcripts().filter((t) => t.is_final);
    expect(finals.length).toBeGreaterThan(1);
    expect(finals[1]!.audio_start).toBeCloseTo(final.audio_end, 3);
    for (const t of finals) expect(timingProblems(t, seconds)).toEqual([]);
    // The words after the Finalize are recognised too ("... seven eight nine ten").
    expect(digitHits(finals.slice(1).map((t) => t.text).join(' ')).length).toBeGreaterThanOrEqual(2);
  });

  it('reports bad messages and carries on', async () => {
    const c = connect(s.url('encoding=linear16'), s.keyHeaders());
    await c.next((m) => m.status === 'connected');
    c.ws.send('{not json');
    c.sendJson({ hello: 'world' });
    c.sendJson({ audio: '***not base64***' });
    c.sendJson({ audio: 42 });
    c.sendJson({ type: 'Shout' });
    c.sendAudio(pcm, 3200);
    c.sendJson({ type: 'CloseStream' });
    expect(await c.closed).toBe(1000);
    expect(c.errors()).toHaveLength(5);
    expect(c.errors()[0]).toMatch(/JSON/);
    expect(c.errors()[1]).toMatch(/audio/);
    expect(c.errors()[2]).toMatch(/base64/);
    expect(digitHits(c.transcripts().filter((t) => t.is_final).map((t) => t.text).join(' ')).length).toBeGreaterThanOrEqual(4);
  });

  it('reports an undecodable container chunk and recovers when real audio follows', async () => {
    const c = connect(s.url(), s.keyHeaders());
    await c.next((m) => m.status === 'connected');
    c.sendJson({ audio: Buffer.from('this is not audio in any container at all, just text'.repeat(20)).toString('base64') });
    await c.next((m) => m.type === 'error');
    c.sendAudio(readFileSync(wav), 4000);
    c.sendJson({ type: 'CloseStream' });
    expect(await c.closed).toBe(1000);
    expect(digitHits(c.transcripts().filter((t) => t.is_final).map((t) => t.text).join(' ')).length).toBeGreaterThanOrEqual(4);
    await waitFor(async () => (ffmpegChildren().length === 0 ? true : undefined), 5000);
  });

  it('handles audio sent before connected, in order', async () => {
    const c = connect(s.url('encoding=linear16'), s.keyHeaders());
    await new Promise<void>((resolve) => c.ws.once('open', () => resolve()));
    c.sendAudio(pcm, 6400);
    c.sendJson({ type: 'CloseStream' });
    expect(await c.closed).toBe(1000);
    expect(c.messages[0]!.status).toBe('connected');
    expect(c.errors()).toEqual([]);
    const words = c.transcripts().filter((t) => t.is_final).flatMap((t) => t.words);
    // Every chunk was heard: words from the start of the speech to its end.
    expect(words.length).toBeGreaterThanOrEqual(6);
    expect(words[0]!.start).toBeLessThan(1.2);
    expect(words[words.length - 1]!.end).toBeGreaterThan(seconds - 1.5);
  });

  it('applies dictation formatting when dictation=true', async () => {
    const plain = connect(s.url('encoding=linear16'), s.keyHeaders());
    await transcribe(plain, pcm, 3200);
    const dictated = connect(s.url('encoding=linear16&dictation=true'), s.keyHeaders());
    await transcribe(dictated, pcm, 3200);
    const words = (c: Client): string[] => c.transcripts().filter((t) => t.is_final).flatMap((t) => t.words.map((w) => w.punctuated_word));
    // Without dictation every segment ends with a full stop; dictation only punctuates what was said.
    expect(words(plain).some((w) => w.endsWith('.'))).toBe(true);
    expect(words(dictated).some((w) => w.endsWith('.'))).toBe(false);
    // Dictation turns "ten" (a number word standing alone) into digits only with a unit; counting stays words.
    expect(words(dictated).join(' ').toLowerCase()).toContain('three');
  });
});
