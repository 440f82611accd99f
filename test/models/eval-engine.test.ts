import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli, TSX } from '../support/child.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { answer, startChatServer } from '../llm/chat-server.js';
import { readAciCases } from '../../scripts/aci-coding.js';

const TESTDATA = '/usr/share/pocketsphinx/test/data';
let work: string;
let env: Record<string, string>;

/** Runs a script with tsx; resolves with its exit code and output. */
function runScript(script: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, join(ROOT, 'scripts', script), ...args], { cwd: ROOT, env: { ...process.env, ...env, ...extra } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-eval-engine-'));
  // One spoken clip with its reference, so nothing is fetched (the script fetches the JFK clip only when absent).
  const samples = join(work, 'samples');
  mkdirSync(samples);
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(samples, 'jfk.wav'), 'ask not what your country can do for you']);
  writeFileSync(join(samples, 'jfk.txt'), 'ask not what your country can do for you\n');
  env = { CLINDOC_DATA_DIR: join(work, 'data'), CLINDOC_SPEECH_SAMPLES: samples, CLINDOC_PS_TESTDATA: TESTDATA };
  expect((await runCli(['models', 'import', writeTinyWhisper(join(work, 'whisper')), '--id', 'tiny-whisper'], env)).code).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!existsSync(join(TESTDATA, 'librivox')))('eval:wer -- --engine NAME', () => {
  it('scores an installed model, batch and live, as Clindoc runs it', { timeout: 180_000 }, async () => {
    const { code, out } = await runScript('eval-wer.ts', ['--only', 'real', '--engine', 'tiny-whisper']);
    expect(code).toBe(0);
    expect(out).toMatch(/^\| tiny-whisper \(onnx-whisper tiny-whisper\), batch \/ real \| 11 \| [\d.]+ \| \d+ \| [\d.]+% \| [\d.]+ \|$/m);
    expect(out).toMatch(/^\| tiny-whisper, live \/ real \| 11 \|/m);
    expect(out).not.toMatch(/pocketsphinx general LM/);
  });

  it('names the engines it can measure when asked for one that is not here', { timeout: 60_000 }, async () => {
    const { code, out } = await runScript('eval-wer.ts', ['--only', 'real', '--engine', 'whisper-large']);
    expect(code).toBe(2);
    expect(out).toContain('--engine whisper-large: not configured or installed here (speech engines: pocketsphinx, tiny-whisper;');
  });
});

describe.skipIf(!readAciCases())('eval:coding -- --engine NAME', () => {
  it('codes the labelled notes with a language-model server\'s proposals, as an account that chose it', { timeout: 300_000 }, async () => {
    // The server proposes nothing: the tables must still come, and every note must have been offered to it.
    const llm = await startChatServer((_req, res) => answer(res, '{"codes": []}'));
    try {
      const { code, out } = await runScript('eval-coding.ts', ['--engine', 'openai-compatible', '--max', '1'], { CLINDOC_LLM_BASE_URL: llm.baseUrl, CLINDOC_LLM_MODEL: 'clinic-model' });
      expect(code).toBe(0);
      expect(out).toContain("coder with openai-compatible's proposals (first 3 labelled notes");
      expect(out).toMatch(/^\| test2 \(held out\) \| 1 \|/m);
      expect(llm.requests.filter((r) => r.method === 'POST').length).toBe(3);
    } finally {
      await llm.close();
    }
  });

  it('names the text engines when asked for one that is not here', { timeout: 120_000 }, async () => {
    const { code, out } = await runScript('eval-coding.ts', ['--engine', 'no-such-model']);
    expect(code).toBe(2);
    expect(out).toContain('--engine no-such-model: not configured or installed here (text engines: embedded');
  });
});
