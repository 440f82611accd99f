/**
 * Issue 29, point 6: the models folder and everything in it are the owner's only: folders 0700,
 * files 0600, whether downloaded, copied in by an import or written as text; a models folder left
 * 0755 by an older version is narrowed on first use.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelFiles } from '../../main/engines/models/model-files.js';
import { createHttpDownloader } from '../../main/engines/models/http-download.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;
/** Every folder and file under `dir` with its permission bits. */
const modesUnder = (dir: string): Array<[string, number]> =>
  (readdirSync(dir, { recursive: true }) as string[]).map((rel) => [rel, modeOf(join(dir, rel))]);

describe('model file permissions', () => {
  const base = mkdtempSync(join(tmpdir(), 'clindoc-model-modes-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('makes folders 0700 and files 0600 for downloads, imports and text, and narrows an old 0755 models folder', async () => {
    const root = join(base, 'models');
    mkdirSync(root, { mode: 0o755 });
    chmodSync(root, 0o755);
    const files = createModelFiles({ root });

    // A download through the real downloader from a loopback server.
    const server = createServer((_req, res) => res.end('weights'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const part = await files.part('tiny-model', 'sub/model.bin');
      await createHttpDownloader().download({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/model.bin`, partFile: part.file });
      await files.finishPart('tiny-model', 'sub/model.bin');
    } finally {
      server.close();
    }
    // An import copied from a world-readable file, and a written text file.
    const source = join(base, 'tokens.txt');
    writeFileSync(source, 'a b c', { mode: 0o644 });
    await files.stageCopy('tiny-model', 'tokens.txt', source, '');
    await files.stageText('tiny-model', 'config.json', '{}');
    await files.install('tiny-model');

    expect(modeOf(root)).toBe(0o700);
    const modes = modesUnder(root);
    expect(modes.map(([rel]) => rel).sort()).toEqual(['.staging', 'tiny-model', 'tiny-model/config.json', 'tiny-model/sub', 'tiny-model/sub/model.bin', 'tiny-model/tokens.txt']);
    for (const [rel, mode] of modes) expect({ rel, mode: mode.toString(8) }).toEqual({ rel, mode: statSync(join(root, rel)).isDirectory() ? '700' : '600' });
  });
});
