import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { readTree, startModelServer, tinyCatalog, type ModelServer } from './model-server.js';
import type { ModelPullView, ModelView } from '../../shared/api/models.js';

const COMMIT = 'c0ffee'.padEnd(40, '0');
let work: string;
let hub: ModelServer;
let s: TestServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-models-api-'));
  const fixture = tinyCatalog(readTree(writeTinyWhisper(join(work, 'whisper'))));
  hub = await startModelServer(fixture.files);
  writeFileSync(join(work, 'catalog.json'), JSON.stringify(fixture.catalog));
  s = await startServer({ CLINDOC_MODEL_CATALOG: join(work, 'catalog.json'), CLINDOC_MODEL_MIRROR: hub.url, CLINDOC_RATE_LIMIT: '100000' });
});
afterAll(async () => {
  await s.close();
  await hub.close();
  rmSync(work, { recursive: true, force: true });
});

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T; message?: string }> {
  const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as { data: T; message?: string };
  return { status: res.status, data: json.data, ...(json.message ? { message: json.message } : {}) };
}
const finished = (id: string): Promise<ModelPullView> =>
  waitFor(async () => {
    const { data } = await call<ModelPullView>('GET', `/v1/models/${id}/pull`);
    return ['done', 'failed', 'cancelled'].includes(data.status) ? data : undefined;
  }, 20_000, 50);

describe('/v1/models', () => {
  it('lists the catalog with what is installed, downloads as a job with progress, and installs', async () => {
    const list = await call<{ items: ModelView[] }>('GET', '/v1/models');
    expect(list.status).toBe(200);
    expect(list.data.items.map((m) => [m.id, m.installed])).toEqual([
      ['tiny-gguf', false], ['tiny-gguf-verified', false], ['tiny-gguf-bad-hash', false], ['tiny-whisper', false],
    ]);
    const queued = await call<ModelPullView>('POST', '/v1/models/tiny-whisper/pull');
    expect(queued.status).toBe(202);
    expect(queued.data).toMatchObject({ modelId: 'tiny-whisper', status: 'queued', receivedBytes: 0 });
    const done = await finished('tiny-whisper');
    expect(done).toMatchObject({ status: 'done', error: null });
    expect(done.receivedBytes).toBe(done.totalBytes);
    const model = (await call<ModelView>('GET', '/v1/models/tiny-whisper')).data;
    expect(model).toMatchObject({ installed: true, engine: 'onnx-whisper', task: 'speech' });
    expect(model.files!.every((f) => f.hashSource === 'publisher')).toBe(true);
    expect((await call('POST', '/v1/models/tiny-whisper/pull')).status).toBe(409);
  });

  it('cancels a download under way, and a retry resumes from where it stopped', async () => {
    const path = `/tiny-gguf/resolve/${COMMIT}/model.gguf`;
    const hold = hub.holdNext(path, 50_000);
    expect((await call('POST', '/v1/models/tiny-gguf/pull')).status).toBe(202);
    await hold.reached;
    const progress = await waitFor(async () => {
      const { data } = await call<ModelPullView>('GET', '/v1/models/tiny-gguf/pull');
      return data.receivedBytes > 0 ? data : undefined;
    }, 10_000, 20);
    expect(progress.status).toBe('running');
    const cancelled = await call<ModelPullView>('DELETE', '/v1/models/tiny-gguf/pull');
    expect(cancelled.data.status).toBe('cancelled');
    hold.release();
    expect((await call<ModelView>('GET', '/v1/models/tiny-gguf')).data.installed).toBe(false);

    hub.requests.length = 0;
    expect((await call('POST', '/v1/models/tiny-gguf/pull')).status).toBe(202);
    expect((await finished('tiny-gguf')).status).toBe('done');
    expect(hub.requests.map((r) => r.range)).toEqual([expect.stringMatching(/^bytes=\d{5,}-$/)]);
  });

  it('reports a wrong hash on the download and keeps nothing', async () => {
    await call('POST', '/v1/models/tiny-gguf-bad-hash/pull');
    const failed = await finished('tiny-gguf-bad-hash');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/is not the publisher's/);
    expect((await call<ModelView>('GET', '/v1/models/tiny-gguf-bad-hash')).data.installed).toBe(false);
  });

  it('imports a file from this computer, verifies and removes it', async () => {
    const file = join(work, 'whisper', 'config.json');
    const refused = await call('POST', '/v1/models/import', { path: file });
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/\.gguf/);
    const imported = await call<ModelView>('POST', '/v1/models/import', { path: join(work, 'whisper') , id: 'clinic-whisper' });
    expect(imported.status).toBe(201);
    expect(imported.data).toMatchObject({ id: 'clinic-whisper', origin: 'import', installed: true });
    expect((await call<{ ok: boolean }>('POST', '/v1/models/clinic-whisper/verify')).data.ok).toBe(true);
    expect((await call('DELETE', '/v1/models/clinic-whisper')).status).toBe(200);
    expect((await call('GET', '/v1/models/clinic-whisper')).status).toBe(404);
  });

  it('documents every model route in OpenAPI', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/v1/models/{modelId}/pull']!).sort()).toEqual(['delete', 'get', 'post']);
    expect(doc.paths['/v1/models/{modelId}/pull']!.post!.responses['507']).toBeDefined();
    expect(doc.paths['/v1/models/import']!.post).toBeDefined();
    expect(doc.paths['/v1/models/{modelId}/verify']!.post).toBeDefined();
  });
});
