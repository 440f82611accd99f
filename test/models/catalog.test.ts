import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateAppFiles } from '../../main/app-files.js';
import { expectedBytes, mirrorUrl, parseCatalog, type ModelCatalog } from '../../main/services/models/catalog.js';

const raw = JSON.parse(readFileSync(join(locateAppFiles().modelsDir, 'catalog.json'), 'utf8')) as ModelCatalog;
const copy = (): ModelCatalog => structuredClone(raw);

describe('the bundled model catalog', () => {
  const catalog = parseCatalog(raw);

  it('offers a Whisper ONNX export for the onnx-whisper engine and GGUF models for 8 GB and 16 GB machines', () => {
    const whisper = catalog.entries.filter((e) => e.engine === 'onnx-whisper');
    expect(whisper.length).toBeGreaterThanOrEqual(1);
    for (const w of whisper) expect(w.folderConfig?.dtype).toBe('q8'); // the _quantized file names need it
    const gguf = catalog.entries.filter((e) => e.engine === 'llama-cpp');
    expect(gguf.map((e) => e.recommendedFor)).toEqual(expect.arrayContaining(['8 GB of memory', '16 GB of memory']));
  });

  it('names a source for every speed and memory figure, and pins every download to a commit', () => {
    for (const e of catalog.entries) {
      expect(e.speed.source.length).toBeGreaterThan(10);
      expect(e.memory.source.length).toBeGreaterThan(10);
      for (const f of e.files) expect(f.url).toMatch(/\/resolve\/[0-9a-f]{40}\//);
    }
  });

  it('marks an entry verified only when every file carries the publisher hash and where it is stated', () => {
    for (const e of catalog.entries) {
      expect(e.verified).toBe(e.files.every((f) => typeof f.sha256 === 'string'));
      for (const f of e.files) if (f.sha256) expect(f.sha256Source).toMatch(/^https:\/\//);
    }
  });

  it('refuses a catalog that breaks a rule, naming the entry and the rule', () => {
    const twice = copy();
    twice.entries.push(structuredClone(twice.entries[0]!));
    expect(() => parseCatalog(twice)).toThrow(/listed twice/);

    const claims = copy();
    const w = claims.entries.find((e) => e.engine === 'onnx-whisper')!;
    w.verified = true;
    expect(() => parseCatalog(claims)).toThrow(new RegExp(`${w.id}: marked verified`));

    const noTokenizer = copy();
    const nt = noTokenizer.entries.find((e) => e.engine === 'onnx-whisper')!;
    nt.files = nt.files.filter((f) => f.path !== 'tokenizer.json');
    expect(() => parseCatalog(noTokenizer)).toThrow(/needs tokenizer.json/);

    const escape = copy();
    escape.entries[0]!.files[0]!.path = '../outside.json';
    expect(() => parseCatalog(escape)).toThrow(/leaves the model folder/);

    const badHash = copy();
    badHash.entries.find((e) => e.verified)!.files[0]!.sha256 = 'not-a-hash';
    expect(() => parseCatalog(badHash)).toThrow(/sha256/);

    const insecure = copy();
    insecure.entries[0]!.files[0]!.url = 'http://example.org/config.json';
    expect(() => parseCatalog(insecure)).toThrow(/url/);
  });

  it('sends a download through a mirror by replacing only the scheme and host', () => {
    const url = 'https://huggingface.co/bartowski/X-GGUF/resolve/abc/X.gguf';
    expect(mirrorUrl(url)).toBe(url);
    expect(mirrorUrl(url, 'http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000/bartowski/X-GGUF/resolve/abc/X.gguf');
    expect(mirrorUrl(url, 'https://files.clinic.local/models')).toBe('https://files.clinic.local/models/bartowski/X-GGUF/resolve/abc/X.gguf');
  });

  it('counts the bytes a download needs from stated or listed sizes', () => {
    expect(expectedBytes({ files: [{ path: 'a', url: 'https://x/a', approxBytes: 10 }, { path: 'b', url: 'https://x/b', bytes: 5 }, { path: 'c', url: 'https://x/c' }] })).toBe(15);
    expect(expectedBytes({ files: [{ path: 'c', url: 'https://x/c' }] })).toBeUndefined();
  });
});
