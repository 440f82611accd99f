import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/child.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { readTree, sha256, startModelServer, tinyCatalog, type ModelServer } from './model-server.js';

let work: string;
let hub: ModelServer;
let env: Record<string, string>;
let gguf: Buffer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-models-cli-'));
  const fixture = tinyCatalog(readTree(writeTinyWhisper(join(work, 'whisper'))));
  gguf = fixture.files[`/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`]!;
  hub = await startModelServer(fixture.files);
  writeFileSync(join(work, 'catalog.json'), JSON.stringify(fixture.catalog));
  env = { CLINDOC_DATA_DIR: join(work, 'data'), CLINDOC_MODEL_CATALOG: join(work, 'catalog.json'), CLINDOC_MODEL_MIRROR: hub.url };
});
afterAll(async () => {
  await hub.close();
  rmSync(work, { recursive: true, force: true });
});

describe('clindoc models', () => {
  it('pulls with a progress bar and prints the publisher hash, then lists, verifies and removes', { timeout: 60_000 }, async () => {
    const pulled = await runCli(['models', 'pull', 'tiny-gguf'], env);
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toMatch(/tiny-gguf \[[█░]+\] 100% \| 0\.1\/0\.1 MB/);
    expect(pulled.stdout).toContain(`sha256 ${sha256(gguf)}  model.gguf (publisher's)`);
    expect(readFileSync(join(work, 'data', 'models', 'tiny-gguf', 'model.gguf')).equals(gguf)).toBe(true);

    const list = await runCli(['models', 'list'], env);
    expect(list.stdout).toMatch(/^tiny-gguf\s+text\s+llama-cpp\s+installed 0\.1\d MB/m);
    expect(list.stdout).toMatch(/^tiny-whisper\s+speech\s+onnx-whisper\s+not installed/m);

    expect((await runCli(['models', 'verify', 'tiny-gguf'], env)).stdout).toContain('ok      model.gguf');
    expect((await runCli(['models', 'rm', 'tiny-gguf'], env)).code).toBe(0);
    const json = JSON.parse((await runCli(['models', 'list', '--json'], env)).stdout) as Array<{ id: string; installed: boolean }>;
    expect(json.find((m) => m.id === 'tiny-gguf')!.installed).toBe(false);
  });

  it('imports a folder and fails with a reason on a wrong hash', { timeout: 60_000 }, async () => {
    const imported = await runCli(['models', 'import', join(work, 'whisper'), '--id', 'office-whisper', '--json'], env);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ id: 'office-whisper', engine: 'onnx-whisper', installed: true });
    const bad = await runCli(['models', 'pull', 'tiny-gguf-bad-hash'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/download failed: model\.gguf: SHA-256 [0-9a-f]{64} is not the publisher's/);
  });
});
