import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { locateAppFiles } from '../../main/app-files.js';
import { parseQuality } from '../../main/services/models/catalog.js';
import type { EnginesStatus, EngineTaskStatus } from '../../shared/api/models.js';
import { ROOT } from '../support/child.js';

let s: TestServer;
let work: string;
const get = async (path: string): Promise<any> => ((await (await fetch(`${s.base}${path}`, { headers: s.headers() })).json()) as { data: unknown }).data;
const task = (status: EnginesStatus, name: EngineTaskStatus['task']): EngineTaskStatus => status.tasks.find((t) => t.task === name)!;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-status-'));
  s = await startServer({ CLINDOC_MODEL_IDLE_SECONDS: '1' });
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

describe('GET /v1/engines: which engine answers each task, and how good it is', () => {
  it('says the embedded engines answer, with their measured figures and how many words to expect wrong', async () => {
    const status = (await get('/v1/engines')) as EnginesStatus;
    expect(status.tasks.map((t) => [t.task, t.engine, t.kind])).toEqual([
      ['dictation', 'pocketsphinx', 'embedded'], ['transcription', 'pocketsphinx', 'embedded'], ['notes', 'embedded', 'embedded'],
      ['extraction', 'embedded', 'embedded'], ['coding', 'embedded', 'embedded'],
    ]);
    const dictation = task(status, 'dictation');
    expect(dictation).toMatchObject({ model: 'en-us + clinical', choice: 'default', partials: true });
    expect(dictation.warnings[0]).toBe(
      'Embedded recogniser: expect about one word in 3 wrong on real speech (30.7% word error rate live, measured 2026-11-25), ' +
      'and most drug and anatomy words missed (65% on synthetic clinical dictation); install a speech model (Settings > Engines > Models).',
    );
    expect(task(status, 'transcription').warnings[0]).toMatch(/^Embedded recogniser: expect about one word in 4 wrong on real speech \(26\.3% word error rate on recordings/);
    expect(dictation.quality.map((q) => `${q.metric} ${q.value} ${q.mode} ${q.date} ${q.script}`)).toContain('WER 26.3 batch 2026-11-25 npm run eval:wer');
    expect(task(status, 'notes').warnings[0]).toMatch(/ROUGE-1 49\.79 on ACI-Bench/);
    expect(task(status, 'coding').quality[0]).toMatchObject({ metric: 'full-code F1', value: 0.646, set: 'ACI-Bench test2 (held out), ICD-10-CM codes from 40 notes' });
  });

  it('follows a switch to a downloaded model: not measured here, no live words, loaded until unused', async () => {
    const dir = writeTinyWhisper(join(work, 'whisper'));
    await fetch(`${s.base}/v1/models/import`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ path: dir, id: 'clinic-whisper' }) });
    await fetch(`${s.base}/v1/settings/engines`, { method: 'PUT', headers: s.headers(), body: JSON.stringify({ asrEngine: 'clinic-whisper' }) });
    const dictation = task(await get('/v1/engines'), 'dictation');
    expect(dictation).toMatchObject({ engine: 'onnx-whisper', model: 'clinic-whisper', kind: 'model', choice: 'account', partials: false, quality: [] });
    expect(dictation.warnings).toEqual([
      'Not measured on this computer: run `npm run eval:wer -- --engine clinic-whisper` and read a few transcripts before relying on it.',
      'No words appear while speaking: each utterance is written when it ends.',
    ]);
    // A downloaded model says whether it is in memory; it leaves memory once unused for the idle time.
    expect(typeof dictation.loaded).toBe('boolean');
    await waitFor(async () => (task(await get('/v1/engines'), 'dictation').loaded === false ? true : undefined), undefined, 100);
  });

  it('keeps its figures as data that matches the README tables', () => {
    const quality = parseQuality(JSON.parse(readFileSync(join(locateAppFiles().modelsDir, 'quality.json'), 'utf8')));
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const m of quality.measurements) {
      const written = m.unit === '%' ? `${m.value.toFixed(1)}%` : String(m.value);
      expect({ figure: `${m.engine} ${m.metric}`, inReadme: readme.includes(written) }).toEqual({ figure: `${m.engine} ${m.metric}`, inReadme: true });
    }
  });
});
