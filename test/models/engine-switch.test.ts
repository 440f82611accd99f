import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyGguf } from '../../scripts/make-tiny-gguf.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { connect, createAudio, DIGITS_TEXT, DIGIT_WORDS, type Audio, type Client } from '../streaming/helpers.js';
import { answer, startChatServer, type ChatServer } from '../llm/chat-server.js';

// The tiny generated Whisper reads any sound as "no fever today." and pocketsphinx hears the
// spoken digits, so each transcript says which engine made it.
const WHISPER_TEXT = /no fever today/i;
const digitHits = (text: string): number => text.toLowerCase().replace(/[^a-z ]/g, ' ').split(/\s+/).filter((w) => DIGIT_WORDS.includes(w)).length;

let work: string;
let s: TestServer;
let llm: ChatServer;
let audio: Audio;
let pcm: Buffer;
let wav: Buffer;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: any; message?: string }> {
  const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as { data: unknown; message?: string };
  return { status: res.status, data: json.data, ...(json.message ? { message: json.message } : {}) };
}
async function upload(): Promise<{ status: string; text: string; generatedBy?: unknown }> {
  const res = await fetch(`${s.base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: { ...s.headers(), 'content-type': 'audio/wav' }, body: new Uint8Array(wav) });
  const { id } = (await res.json()) as { id: string };
  return waitFor(async () => {
    const r = (await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).json()) as { status: string; text: string };
    return r.status === 'completed' || r.status === 'failed' ? r : undefined;
  }, 60_000, 100);
}
const session = (): Client => connect(`ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': s.creds.accountId });
const finals = (c: Client): string => c.transcripts().filter((t) => t.is_final).map((t) => t.text).join(' ');

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-switch-'));
  audio = createAudio();
  const file = audio.speak('digits', DIGITS_TEXT);
  pcm = audio.encode(file, 'digits.raw', ['-f', 's16le', '-ar', '16000', '-ac', '1']);
  wav = audio.encode(file, 'digits16.wav', ['-ar', '16000', '-ac', '1']);
  // A loopback OpenAI-compatible server is the device's configured language model.
  llm = await startChatServer((_req, res) => answer(res, JSON.stringify({
    subjective: 'Cough for 3 days.', objective: 'Not examined.', assessment: 'Cough.', plan: ['Rest.'],
  })));
  s = await startServer({ CLINDOC_MODEL_IDLE_SECONDS: '1', CLINDOC_RATE_LIMIT: '100000', CLINDOC_LLM_BASE_URL: llm.baseUrl, CLINDOC_LLM_MODEL: 'clinic-model' });
  writeTinyWhisper(join(work, 'whisper'));
  expect((await api('POST', '/v1/models/import', { path: join(work, 'whisper'), id: 'tiny-whisper' })).status).toBe(201);
  writeTinyGguf(join(work, 'tiny.gguf'));
  expect((await api('POST', '/v1/models/import', { path: join(work, 'tiny.gguf'), id: 'tiny-llm' })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
  await llm?.close();
  audio?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('switching engines while Clindoc runs', () => {
  it('a live session keeps its engine; the next session and the next upload use the new one', { timeout: 120_000 }, async () => {
    const first = session();
    await first.next((m) => m.type === 'status' && m.status === 'connected');
    first.sendAudio(pcm.subarray(0, pcm.length / 2), 3200);

    const chosen = await api('PUT', '/v1/settings/engines', { asrEngine: 'tiny-whisper' });
    expect(chosen.status).toBe(200);
    expect(chosen.data).toMatchObject({ asrEngine: 'tiny-whisper', source: 'account' });
    expect(chosen.data.available).toContain('tiny-whisper');

    const second = session();
    await second.next((m) => m.type === 'status' && m.status === 'connected');
    second.sendAudio(pcm, 3200);
    second.sendJson({ type: 'CloseStream' });
    expect(await second.closed).toBe(1000);
    expect(finals(second)).toMatch(WHISPER_TEXT);

    first.sendAudio(pcm.subarray(pcm.length / 2), 3200);
    first.sendJson({ type: 'CloseStream' });
    expect(await first.closed).toBe(1000);
    expect(finals(first)).not.toMatch(WHISPER_TEXT);
    expect(digitHits(finals(first))).toBeGreaterThanOrEqual(3);

    const transcript = await upload();
    expect(transcript.status).toBe('completed');
    expect(transcript.text).toMatch(WHISPER_TEXT);
    expect(transcript.generatedBy).toEqual({ engine: 'onnx-whisper', model: 'tiny-whisper' });
  });

  it('a model that fails to load is refused with the reason and the previous engine stays', { timeout: 60_000 }, async () => {
    cpSync(join(work, 'whisper'), join(work, 'broken'), { recursive: true });
    // A graph onnxruntime cannot load is refused at import already (the header is read first)...
    writeFileSync(join(work, 'broken', 'onnx', 'encoder_model.onnx'), Buffer.from('this is not an ONNX graph'));
    const atImport = await api('POST', '/v1/models/import', { path: join(work, 'broken'), id: 'broken-whisper' });
    expect(atImport).toMatchObject({ status: 400, message: 'path: refused, onnx/encoder_model.onnx is not an ONNX graph onnxruntime can load' });
    // ...so this one breaks only what the engine reads when it loads: its tokenizer.
    cpSync(join(work, 'whisper', 'onnx', 'encoder_model.onnx'), join(work, 'broken', 'onnx', 'encoder_model.onnx'));
    writeFileSync(join(work, 'broken', 'tokenizer.json'), Buffer.from('{ not a tokenizer'));
    expect((await api('POST', '/v1/models/import', { path: join(work, 'broken'), id: 'broken-whisper' })).status).toBe(201);
    const refused = await api('PUT', '/v1/settings/engines', { asrEngine: 'broken-whisper' });
    expect(refused.status).toBe(503);
    expect(refused.message).toMatch(/^broken-whisper could not be loaded, so tiny-whisper stays in use: onnx-whisper: the model could not be loaded/);
    expect((await api('GET', '/v1/settings/engines')).data).toMatchObject({ asrEngine: 'tiny-whisper', source: 'account' });
    expect((await upload()).text).toMatch(WHISPER_TEXT);
  });

  it('notes follow the account\'s note engine and record which engine and model wrote them', { timeout: 120_000 }, async () => {
    const note = async (): Promise<any> => {
      const { data } = await api('POST', '/v1/notes', { transcript: '[doctor] what brings you in? [patient] a cough for three days.', noteType: { type: 'soap' } });
      return waitFor(async () => {
        const r = await api('GET', `/v1/notes/${data.noteId}`);
        return r.data.status === 'STATUS_DONE' || r.data.status === 'STATUS_FAILED' ? r.data : undefined;
      }, 60_000, 100);
    };
    expect((await api('GET', '/v1/settings/engines')).data).toMatchObject({ noteEngine: 'openai-compatible', noteSource: 'default', noteAvailable: ['openai-compatible', 'embedded', 'tiny-llm'] });
    expect((await note()).payload.generatedBy).toEqual({ engine: 'openai-compatible', model: 'clinic-model' });
    const asked = llm.requests.length;

    expect((await api('PUT', '/v1/settings/engines', { noteEngine: 'embedded' })).data).toMatchObject({ noteEngine: 'embedded', noteSource: 'account' });
    expect((await note()).payload.generatedBy).toEqual({ engine: 'embedded' });
    expect(llm.requests.length).toBe(asked);

    // An installed GGUF is loaded when chosen (the speech choice is left as it was).
    const chosen = await api('PUT', '/v1/settings/engines', { noteEngine: 'tiny-llm' });
    expect(chosen.status).toBe(200);
    expect(chosen.data).toMatchObject({ noteEngine: 'tiny-llm', noteSource: 'account', asrEngine: 'tiny-whisper' });
    expect((await api('PUT', '/v1/settings/engines', { noteEngine: null })).data).toMatchObject({ noteEngine: 'openai-compatible', noteSource: 'default' });
  });

  it('unloads a model nobody has used for CLINDOC_MODEL_IDLE_SECONDS', { timeout: 30_000 }, async () => {
    await upload();
    const unloaded = (key: string): Promise<string> => waitFor(async () => s.logs.find((l) => l.includes('model unloaded after being unused') && l.includes(key)), undefined, 100);
    expect(JSON.parse(await unloaded('speech:tiny-whisper'))).toMatchObject({ engine: 'speech:tiny-whisper' });
    expect(JSON.parse(await unloaded('text:tiny-llm'))).toMatchObject({ engine: 'text:tiny-llm' });
  });
});
