import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../main/config.js';
import { openDatabase, type Db } from '../../main/store/database.js';
import { composeModelManager, modelsFolder } from '../../main/compose-models.js';
import { benchModel, readBench } from '../../main/cli/models-bench.js';
import { runModelsCommand } from '../../main/cli/models-command.js';
import type { ModelService } from '../../main/services/models/model-service.js';
import { writeTinyGguf } from '../../scripts/make-tiny-gguf.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { createAudio } from '../streaming/helpers.js';

/**
 * `clindoc models bench`: a model's speed is measured on this computer and stored with its date and
 * machine, and `models list` shows it; before that, the list says it was not measured. The tiny
 * generated GGUF runs in the real llama.cpp engine (its text is garbage; only the counts matter).
 */
let work: string;
let db: Db;
let service: ModelService;
let config: ReturnType<typeof loadConfig>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-bench-'));
  config = loadConfig({ CLINDOC_DATA_DIR: join(work, 'data'), CLINDOC_LLM_THREADS: '1' });
  db = openDatabase(join(work, 'clindoc.db'));
  service = composeModelManager(config, db, { warn: () => undefined }).service;
  writeTinyGguf(join(work, 'tiny.gguf'));
  await service.importFrom(join(work, 'tiny.gguf'), 'tiny-llm');
  await service.importFrom(writeTinyWhisper(join(work, 'w')), 'tiny-whisper');
});
afterAll(() => {
  db.close();
  rmSync(work, { recursive: true, force: true });
});

const list = async (): Promise<string> => {
  const out: string[] = [];
  await runModelsCommand(service, 'list', undefined, {}, { json: false, out: (l) => out.push(l), err: () => undefined, benchOf: (id) => readBench(join(modelsFolder(config.dataDir), id)) });
  return out.join('\n');
};

describe('clindoc models bench', () => {
  it('says "not measured" until a model is measured, then its tokens per second with date and machine', { timeout: 120_000 }, async () => {
    expect(await list()).toMatch(/^tiny-llm .*speed not measured here \(clindoc models bench ID\)/m);
    const model = service.installed().find((m) => m.id === 'tiny-llm')!;
    const folder = join(modelsFolder(config.dataDir), 'tiny-llm');
    const result = await benchModel(config, model, folder);
    expect(result).toMatchObject({ id: 'tiny-llm', engine: 'llama-cpp', date: new Date().toISOString().slice(0, 10), machine: expect.stringMatching(/cores/) });
    expect(result.tokens).toBeGreaterThan(0);
    expect(result.tokensPerSecond).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(folder, 'bench.json'), 'utf8'))).toEqual(result);
    expect(await list()).toMatch(new RegExp(`^tiny-llm .*measured here ${result.date}: ${result.tokensPerSecond} tokens/s, -?\\d+ MB`, 'm'));
  });

  it('asks for a recording to measure a speech model on, and stores nothing without one', async () => {
    const model = service.installed().find((m) => m.id === 'tiny-whisper')!;
    const folder = join(modelsFolder(config.dataDir), 'tiny-whisper');
    await expect(benchModel(config, model, folder)).rejects.toThrow('tiny-whisper is a speech model: measure it on a recording, clindoc models bench tiny-whisper --audio FILE (a few minutes of dictation)');
    expect(existsSync(join(folder, 'bench.json'))).toBe(false);
  });

  it('measures a speech model on the recording it is given: real-time factor over its length', { timeout: 120_000 }, async () => {
    const audio = createAudio();
    try {
      const wav = audio.speak('dictation', 'No fever today. The cough is better.');
      const model = service.installed().find((m) => m.id === 'tiny-whisper')!;
      const result = await benchModel(config, model, join(modelsFolder(config.dataDir), 'tiny-whisper'), wav);
      expect(result).toMatchObject({ id: 'tiny-whisper', engine: 'onnx-whisper', audioSeconds: expect.any(Number), realTimeFactor: expect.any(Number) });
      expect(result.audioSeconds).toBeGreaterThan(2);
      expect(result.realTimeFactor).toBeGreaterThan(0);
      expect(await list()).toMatch(new RegExp(`^tiny-whisper .*measured here ${result.date}: real-time factor ${result.realTimeFactor}`, 'm'));
    } finally {
      audio.cleanup();
    }
  });
});
