import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createModelStore } from '../../main/store/model-store.js';
import { createModelFiles } from '../../main/engines/models/model-files.js';
import { createHttpDownloader } from '../../main/engines/models/http-download.js';
import { createModelInspector } from '../../main/engines/models/model-inspector.js';
import { createModelService, type ModelService } from '../../main/services/models/model-service.js';
import { buildTinyGguf } from '../../scripts/make-tiny-gguf.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { readTree, sha256, tinyCatalog } from './model-server.js';

/**
 * Imports read the model's own header before accepting it: a file that only ends in `.gguf` or a
 * folder whose graph onnxruntime cannot load is refused at import, naming what is wrong, and an
 * accepted one says which architecture, parameters and quantisation it found.
 */
let work: string;
let whisperDir: string;
let db: Db;
let root: string;
let service: ModelService;
let n = 0;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-import-'));
  whisperDir = writeTinyWhisper(join(work, 'whisper-src'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeEach(() => {
  const dir = join(work, `case-${++n}`);
  mkdirSync(dir);
  db = openDatabase(join(dir, 'clindoc.db'));
  root = join(dir, 'models');
  service = createModelService({
    catalog: tinyCatalog(readTree(whisperDir)).catalog, store: createModelStore(db), files: createModelFiles({ root }),
    downloader: createHttpDownloader(), inspector: createModelInspector(), enqueue: async () => undefined, reserveBytes: 0,
  });
});
afterEach(() => db.close());

const file = (name: string, bytes: Buffer): string => {
  const path = join(work, `case-${n}`, name);
  writeFileSync(path, bytes);
  return path;
};
const nothingLeft = (id: string): void => {
  expect(existsSync(join(root, id))).toBe(false);
  expect(existsSync(join(root, '.staging', id))).toBe(false);
};

describe('importing a GGUF file', () => {
  it('refuses 2 MB of random bytes named .gguf, saying it is not a GGUF model', async () => {
    const path = file('random.gguf', randomBytes(2_000_000));
    await expect(service.importFrom(path)).rejects.toThrow('path: refused, not a GGUF model: not starting with GGUF magic number');
    expect((await service.list()).some((m) => m.id === 'random')).toBe(false);
    nothingLeft('random');
  });

  it('refuses a GGUF whose header is whole but whose tensors were cut off', async () => {
    const whole = buildTinyGguf(3);
    const path = file('cut.gguf', whole.subarray(0, whole.length - 20_000));
    await expect(service.importFrom(path)).rejects.toThrow(/path: refused, the GGUF file is cut short/);
    nothingLeft('cut');
  });

  it('accepts a real GGUF and names the architecture, parameter count and quantisation it read', async () => {
    const bytes = buildTinyGguf(11);
    const view = await service.importFrom(file('Clinic Notes 3B.gguf', bytes));
    expect(view).toMatchObject({ id: 'clinic-notes-3b', engine: 'llama-cpp', origin: 'import', installed: true });
    // 32-wide embeddings over a 231-token vocabulary, one layer: counted from the tensor table, all F32.
    expect(view.inspected).toEqual({ format: 'gguf', architecture: 'llama', parameters: expect.any(Number), quantisation: 'F32' });
    expect(view.inspected!.parameters).toBeGreaterThan(32 * 231);
    expect(view.files).toEqual([{ path: 'model.gguf', bytes: bytes.length, sha256: sha256(bytes), hashSource: 'pinned' }]);
  });
});

describe('importing an ONNX folder', () => {
  it('loads each graph in onnxruntime and names the architecture from config.json', async () => {
    const view = await service.importFrom(whisperDir, 'office-whisper');
    expect(view.inspected).toEqual({ format: 'onnx', architecture: 'whisper', parameters: null, quantisation: null });
  });

  it('refuses a folder whose graph onnxruntime cannot load, naming the file', async () => {
    const broken = join(work, `case-${n}`, 'broken');
    for (const [path, bytes] of Object.entries(readTree(whisperDir))) {
      mkdirSync(join(broken, path, '..'), { recursive: true });
      writeFileSync(join(broken, path), bytes);
    }
    writeFileSync(join(broken, 'onnx', 'decoder_model_merged.onnx'), randomBytes(4096));
    await expect(service.importFrom(broken)).rejects.toThrow('path: refused, onnx/decoder_model_merged.onnx is not an ONNX graph onnxruntime can load');
    nothingLeft('broken');
    expect(readdirSync(root).filter((d) => d !== '.staging')).toEqual([]);
  });
});
