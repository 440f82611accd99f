/**
 * Operations endpoints on the real composed server: liveness, readiness (and a real database
 * failure), Prometheus metrics labelled by route template with no ids, accounts or patient text,
 * the job backlog, the real-time factor of a real transcription, and who may read `/metrics`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { dropDatabaseOf, onPostgres } from '../support/database.js';
import { wavBytes } from '../support/audio.js';

/** A GET with a Host and headers of our choosing (fetch will not send a foreign Host). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, prefix: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('health, readiness and metrics', () => {
  let s: TestServer;
  beforeAll(async () => {
    // No jobs run, so what is submitted stays queued for the backlog metrics.
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
  });
  afterAll(() => s?.close());

  it('answers /healthz and /readyz without a key, naming the checks and nothing else', async () => {
    const health = await fetch(`${s.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${s.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready', checks: [{ name: 'database', ok: true }, { name: 'job queue', ok: true }, { name: 'engines', ok: true }],
    });
    // A load balancer probes by address: no Host rule for these two.
    expect((await get(s.port, '/readyz', { host: '10.0.0.5:8080' })).status).toBe(200);
  });

  it('labels requests by route template and status, never by id, account, key or text', async () => {
    const transcript = '[patient] Zephyrine rash on my left elbow since Tuesday. [doctor] Apply the cream twice a day.';
    const created = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript, noteType: { type: 'soap' } }) });
    expect(created.status).toBe(202);
    const noteId = ((await created.json()) as { data: { noteId: string } }).data.noteId;
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).status).toBe(200);
    expect((await fetch(`${s.base}/v1/notes/no-such-note`, { headers: s.headers() })).status).toBe(404);
    expect((await fetch(`${s.base}/v1/notes/${noteId}`)).status).toBe(401);
    expect((await fetch(`${s.base}/no/such/${noteId}`, { headers: s.headers() })).status).toBe(404);

    const res = await get(s.port, '/metrics');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(sample(text, 'clindoc_http_requests_total{method="GET",route="/v1/notes/{noteId}",status="200"}')).toBe(3);
    expect(sample(text, 'clindoc_http_requests_total{method="GET",route="/v1/notes/{noteId}",status="404"}')).toBe(1);
    expect(sample(text, 'clindoc_http_requests_total{method="POST",route="/v1/notes",status="202"}')).toBe(1);
    expect(sample(text, 'clindoc_http_requests_total{method="GET",route="/v1/notes/{noteId}",status="401"}')).toBe(1);
    // Unknown paths: one label, whatever the URL held.
    expect(sample(text, 'clindoc_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'clindoc_http_request_duration_seconds_count{method="GET",route="/v1/notes/{noteId}",status="200"}')).toBe(3);
    for (const secret of [noteId, s.creds.accountId, s.creds.apiKey, 'Zephyrine', 'elbow', 'no-such-note']) expect(text).not.toContain(secret);
    // Node's process metrics from the same registry.
    expect(sample(text, 'clindoc_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('clindoc_nodejs_eventloop_lag_seconds');
  });

  it('reports the job backlog by kind with the age of the oldest queued job', async () => {
    const before = sample((await get(s.port, '/metrics')).body, 'clindoc_jobs_queued{kind="note_generation"}') ?? 0;
    expect((await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: '[doctor] Follow up in two weeks.', noteType: { type: 'soap' } }) })).status).toBe(202);
    const text = (await get(s.port, '/metrics')).body;
    expect(sample(text, 'clindoc_jobs_queue_up')).toBe(1);
    expect(sample(text, 'clindoc_jobs_queued{kind="note_generation"}')).toBe(before + 1);
    expect(sample(text, 'clindoc_jobs_running{kind="note_generation"}')).toBe(0);
    const age = sample(text, 'clindoc_jobs_oldest_queued_age_seconds{kind="note_generation"}');
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(120);
  });

  it('serves /metrics to loopback clients under this service\'s Host only, when no token is set', async () => {
    expect((await get(s.port, '/metrics')).status).toBe(200);
    // A DNS-rebinding page reaches loopback under its own name.
    const rebound = await get(s.port, '/metrics', { host: `evil.example:${s.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: 403 });
    // A page of another site in the physician's browser.
    expect((await get(s.port, '/metrics', { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('is described by the OpenAPI document (bodies validated against it)', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as any;
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'openapi.json');
    const ready = ajv.compile({ $ref: 'openapi.json#/paths/~1readyz/get/responses/200/content/application~1json/schema' });
    expect(ready(await (await fetch(`${s.base}/readyz`)).json())).toBe(true);
    const health = ajv.compile({ $ref: 'openapi.json#/paths/~1healthz/get/responses/200/content/application~1json/schema' });
    expect(health(await (await fetch(`${s.base}/healthz`)).json())).toBe(true);
    expect(doc.paths['/metrics'].get.security).toEqual([]);
    expect(doc.paths['/metrics'].get.description).toContain('CLINDOC_METRICS_TOKEN');
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('answers /readyz 503 naming the database when it is gone, while /healthz stays 200', async () => {
    const other = await startServer();
    try {
      // SQLite: its file's connection is closed. PostgreSQL: the database is dropped, which cuts
      // every connection and refuses new ones.
      if (onPostgres) await dropDatabaseOf(other.dataDir);
      else other.clindoc.db.close();
      const ready = await fetch(`${other.base}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { status: string; checks: { name: string; ok: boolean; reason?: string }[] };
      expect(body.status).toBe('unavailable');
      expect(body.checks.find((c) => c.name === 'database')).toEqual({ name: 'database', ok: false, reason: 'failed' });
      expect(body.checks.find((c) => c.name === 'engines')).toEqual({ name: 'engines', ok: true });
      // The reason is a word, never the driver's message.
      expect(JSON.stringify(body)).not.toMatch(/sqlite|database connection|not open/i);
      expect((await fetch(`${other.base}/healthz`)).status).toBe(200);
      // Metrics still render, saying the queue could not be read.
      expect(sample((await get(other.port, '/metrics')).body, 'clindoc_jobs_queue_up')).toBe(0);
    } finally {
      await other.close().catch(() => undefined); // its database is already closed
    }
  });
});

describe('readiness of the default engines', () => {
  it('answers /readyz 503 naming the engines when the configured recogniser is not there', async () => {
    // The OpenAI-compatible recogniser chosen as the default, with no server configured for it.
    const s = await startServer({ CLINDOC_ASR_ENGINE: 'openai-compatible' });
    try {
      const ready = await fetch(`${s.base}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { checks: { name: string; ok: boolean; reason?: string }[] };
      expect(body.checks.find((c) => c.name === 'engines')).toEqual({ name: 'engines', ok: false, reason: 'failed' });
      expect(body.checks.find((c) => c.name === 'database')).toEqual({ name: 'database', ok: true });
    } finally {
      await s.close();
    }
  });
});

describe('metrics with a token, and behind a TLS proxy', () => {
  it('needs the bearer token from every client when CLINDOC_METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const s = await startServer({ CLINDOC_METRICS_TOKEN: token });
    try {
      const none = await get(s.port, '/metrics');
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await get(s.port, '/metrics', { authorization: `Bearer ${token}x` })).status).toBe(401);
      expect((await get(s.port, '/metrics', { authorization: token })).status).toBe(401);
      const ok = await get(s.port, '/metrics', { authorization: `Bearer ${token}`, host: `metrics.example:${s.port}` });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('clindoc_http_requests_total');
      expect(ok.body).not.toContain(token);
      const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as any;
      expect(doc.paths['/metrics'].get.security).toEqual([{ metricsToken: [] }]);
    } finally {
      await s.close();
    }
  });

  it('judges a proxied client by the address the trusted proxy forwards', async () => {
    const s = await startServer({ CLINDOC_BEHIND_TLS_PROXY: 'true' });
    try {
      expect((await get(s.port, '/metrics')).status).toBe(200);
      // nginx on this computer forwarding a request from the clinic's network.
      expect((await get(s.port, '/metrics', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
      expect((await get(s.port, '/metrics', { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('real-time factor of a real transcription', () => {
  it('records wall time over audio time by engine once a transcription completes', async () => {
    const s = await startServer();
    try {
      const upload = await fetch(`${s.base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(2) });
      expect(upload.status).toBe(202);
      const id = ((await upload.json()) as { id: string }).id;
      await waitFor(async () => {
        const t = (await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers: s.headers() })).json()) as { status: string };
        return t.status === 'completed' || t.status === 'failed' ? t.status : undefined;
      }, 60_000);
      const text = (await get(s.port, '/metrics')).body;
      expect(sample(text, 'clindoc_transcription_real_time_factor_count{engine="pocketsphinx"}')).toBe(1);
      const sum = sample(text, 'clindoc_transcription_real_time_factor_sum{engine="pocketsphinx"}')!;
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(30);
    } finally {
      await s.close();
    }
  });
});
