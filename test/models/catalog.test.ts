import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateAppFiles } from '../../main/app-files.js';
import { expectedBytes, mirrorUrl, parseCatalog, type ModelCatalog } from '../../main/services/models/catalog.js';

const raw = JSON.parse(readFileSync(join(locateAppFiles().modelsDir, 'catalog.json'), 'utf8')) as ModelCatalog;
const copy = (): ModelCatalog => structuredClone(raw);

describe('the bundled model catalog', () => {
  const catalog = parseCatalog(raw);

  it('offers GGUF models for 8 GB and 16 GB machines', () => {
    const gguf = catalog.entries.filter((e) => e.engine === 'llama-cpp');
    expect(gguf.map((e) => e.recommendedFor)).toEqual(expect.arrayContaining(['8 GB of memory', '16 GB of memory']));
  });

  it("pins every file of every entry to the publisher's SHA-256 and listed size, saying where and when they were read", () => {
    for (const e of catalog.entries) {
      for (const f of e.files) {
        expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(f.approxBytes).toBeGreaterThan(0);
        expect(f.listedSize).toMatch(/^\d+(\.\d+)? (GB|MB|kB|bytes)$/);
        expect(f.listedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        // The hash is stated on the publisher's page for the very commit the file is downloaded from.
        const commit = /\/resolve\/([0-9a-f]{40})\//.exec(f.url)![1]!;
        expect(f.sha256Source).toContain(`/blob/${commit}/`);
        expect(new URL(f.sha256Source.split(' ')[0]!).host).toBe(new URL(f.url).host);
      }
    }
  });

  it('names what was left out for want of a publisher hash, and lists none of it', () => {
    expect(raw.leftOut!.map((l) => l.id)).toEqual(['whisper-base', 'whisper-small-en']);
    for (const l of raw.leftOut!) {
      expect(l.reason).toMatch(/SHA-256/);
      expect(catalog.entries.some((e) => e.id === l.id)).toBe(false);
    }
  });

  it('says "not measured" for speed rather than quoting a figure without a source', () => {
    for (const e of catalog.entries) {
      expect(e.speed.text).toBe('not measured');
      expect(e.speed.source).toContain(`clindoc models bench ${e.id}`);
      expect(e.memory.source.length).toBeGreaterThan(10);
    }
  });

  it('refuses a catalog that breaks a rule, naming the entry and the rule', () => {
    const twice = copy();
    twice.entries.push(structuredClone(twice.entries[0]!));
    expect(() => parseCatalog(twice)).toThrow(/listed twice/);

    const unhashed = copy();
    delete (unhashed.entries[0]!.files[0] as { sha256?: string }).sha256;
    expect(() => parseCatalog(unhashed)).toThrow(/sha256/);

    const unsourced = copy();
    unsourced.entries[0]!.files[0]!.sha256Source = 'the engine notes';
    expect(() => parseCatalog(unsourced)).toThrow(new RegExp(`${unsourced.entries[0]!.id}: a sha256Source must be the publisher's https page`));

    const whisper = copy();
    whisper.entries.push({
      ...structuredClone(whisper.entries[0]!), id: 'w', engine: 'onnx-whisper', task: 'speech',
      files: [{ ...whisper.entries[0]!.files[0]!, path: 'onnx/encoder_model.onnx' }],
    });
    expect(() => parseCatalog(whisper)).toThrow(/needs config.json/);

    const escape = copy();
    escape.entries[0]!.files[0]!.path = '../outside.json';
    expect(() => parseCatalog(escape)).toThrow(/leaves the model folder/);

    const badHash = copy();
    badHash.entries[0]!.files[0]!.sha256 = 'not-a-hash';
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
    const file = raw.entries[0]!.files[0]!;
    expect(expectedBytes({ files: [{ ...file, approxBytes: 10 }, { ...file, approxBytes: 6, bytes: 5 }] })).toBe(15);
  });
});
