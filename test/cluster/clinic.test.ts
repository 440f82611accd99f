/**
 * Clinic mode as a clinic runs it: one PostgreSQL database, one shared folder and one master key;
 * two `clindoc serve --role api` and two `--role worker` processes, each with its own data folder;
 * a webhook receiver. Work is handed to either API and must be done by either worker, read back the
 * same from both APIs, survive a worker killed with SIGKILL in the middle of a transcription, count
 * against one rate limit across the APIs, and be announced to the receiver exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechWav } from '../support/audio.js';
import { queryRows } from '../support/database.js';
import { clinicUnavailable, openClinic, type Clinic } from './clinic-env.js';
import { authHeaders, createAccount, sleep, startInstance, stopAll, until, type Instance } from './instances.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

if (clinicUnavailable) console.warn(`clinic multi-process test skipped: ${clinicUnavailable}`);

/** A small limit and a short window, so a burst crosses it quickly; the main account's polling stays far below. */
const RATE_LIMIT = 60;
const RATE_WINDOW_SECONDS = 5;
/** A worker that stops renewing its jobs' leases loses them after this long. */
const JOB_EXPIRE_SECONDS = 5;

type Account = { accountId: string; apiKey: string };
type Json = Record<string, unknown>;

const TRANSCRIPTS = [
  '[doctor] What brings you in today? [patient] A cough for a week and a mild fever. [doctor] Lungs are clear. Rest and fluids.',
  '[patient] My knee has been swollen since I fell on Sunday. [doctor] No fracture on exam. Ice, rest and ibuprofen.',
  '[doctor] How is the blood pressure? [patient] Better on the new pill. [doctor] It is one thirty over eighty today. Continue the same dose.',
  '[patient] I get headaches most afternoons. [doctor] Drink more water and keep a headache diary. Return in a month.',
];

describe.skipIf(clinicUnavailable !== null)('clinic mode: two API and two worker processes on one PostgreSQL database', () => {
  let clinic: Clinic;
  let receiver: WebhookReceiver;
  let main: Account;
  let burst: Account;
  let apis: Instance[] = [];
  let workers: Instance[] = [];
  /** Every note and transcription submitted by the main account, for the webhook count at the end. */
  const expectedEvents = new Set<string>();

  beforeAll(async () => {
    clinic = await openClinic({
      CLINDOC_JOB_EXPIRE_SECONDS: String(JOB_EXPIRE_SECONDS), CLINDOC_RATE_LIMIT: String(RATE_LIMIT),
      CLINDOC_RATE_WINDOW_SECONDS: String(RATE_WINDOW_SECONDS), CLINDOC_DRAIN_SECONDS: '2',
    });
    receiver = await startWebhookReceiver();
    // Accounts come from the CLI on the clinic's database, as an administrator makes them.
    main = await createAccount('Main street clinic', clinic.env('cli'));
    burst = await createAccount('Burst clinic', clinic.env('cli'));
    // The first start migrates the database; the others start beside it, as a clinic's service manager starts them.
    const started = await Promise.all([
      startInstance({ name: 'api-1', role: 'api', env: clinic.env('api-1') }),
      startInstance({ name: 'api-2', role: 'api', env: clinic.env('api-2') }),
      startInstance({ name: 'worker-1', role: 'worker', env: clinic.env('worker-1') }),
      startInstance({ name: 'worker-2', role: 'worker', env: clinic.env('worker-2') }),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
    const registered = await fetch(`${apis[0]!.base}/v1/webhooks`, { method: 'POST', headers: authHeaders(main), body: JSON.stringify({ url: receiver.url }) });
    expect(registered.status).toBe(201);
    receiver.setSecret(((await registered.json()) as { data: { secret: string } }).data.secret);
  }, 150_000);

  afterAll(async () => {
    // SIGCONT first: a worker left stopped by a failed test would never answer SIGTERM.
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGCONT');
    await stopAll();
    await receiver?.close();
    await clinic?.close();
  }, 60_000);

  /** Whichever API comes next, so consecutive requests alternate between the two. */
  let turn = 0;
  const nextApi = (): Instance => apis[turn++ % apis.length]!;

  const submitNote = async (api: Instance, transcript: string): Promise<string> => {
    const res = await fetch(`${api.base}/v1/notes`, { method: 'POST', headers: authHeaders(main), body: JSON.stringify({ transcript, noteType: { type: 'soap' } }) });
    expect(res.status, await res.clone().text()).toBe(202);
    const id = ((await res.json()) as { data: { noteId: string } }).data.noteId;
    expectedEvents.add(`note_generation.succeeded ${id}`);
    return id;
  };

  const submitAudio = async (api: Instance, wav: Buffer): Promise<string> => {
    const res = await fetch(`${api.base}/v2/audio/transcriptions?diarization=false`, {
      method: 'POST', headers: authHeaders(main, { 'content-type': 'audio/wav' }), body: new Uint8Array(wav),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const id = ((await res.json()) as { id: string }).id;
    expectedEvents.add(`audio_transcription.succeeded ${id}`);
    return id;
  };

  const readNote = async (api: Instance, id: string): Promise<Json> => {
    const res = await fetch(`${api.base}/v1/notes/${id}`, { headers: authHeaders(main) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Json }).data;
  };
  const readTranscription = async (api: Instance, id: string): Promise<Json> => {
    const res = await fetch(`${api.base}/v2/audio/transcriptions/${id}`, { headers: authHeaders(main) });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };

  /** Polls each item through alternating APIs until every one is finished; resolves with the final records. */
  const allFinished = async (items: { kind: 'note' | 'audio'; id: string }[], timeoutMs: number): Promise<Map<string, Json>> => {
    const done = new Map<string, Json>();
    await until(async () => {
      for (const item of items) {
        if (done.has(item.id)) continue;
        const record = item.kind === 'note' ? await readNote(nextApi(), item.id) : await readTranscription(nextApi(), item.id);
        const status = String(record.status);
        if (['STATUS_DONE', 'STATUS_FAILED', 'completed', 'failed'].includes(status)) done.set(item.id, record);
      }
      return done.size === items.length;
    }, `${items.length - done.size} of ${items.length} jobs to finish`, timeoutMs, 500);
    return done;
  };

  it('every instance is ready, and a worker serves the operations endpoints only', async () => {
    for (const instance of [...apis, ...workers]) {
      const ready = await fetch(`${instance.base}/readyz`);
      expect(ready.status, `${instance.name}: ${await ready.clone().text()}`).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ready');
    }
    for (const worker of workers) {
      expect((await fetch(`${worker.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${worker.base}/v1/notes`, { method: 'POST', headers: authHeaders(main), body: JSON.stringify({ transcript: 'x' }) })).status).toBe(404);
    }
  });

  it('notes and transcriptions handed alternately to either API all complete and read back the same from both', async () => {
    const first = speechWav('Blood pressure is one hundred twenty over eighty. Heart rate seventy two.');
    const second = speechWav('The patient reports a sore throat for three days. No fever.');
    const items: { kind: 'note' | 'audio'; id: string }[] = [];
    // Alternate kinds and APIs: note to api-1, audio to api-2, note to api-2, audio to api-1, ...
    for (let i = 0; i < TRANSCRIPTS.length; i++) {
      items.push({ kind: 'note', id: await submitNote(apis[i % 2]!, TRANSCRIPTS[i]!) });
      if (i < 2) items.push({ kind: 'audio', id: await submitAudio(apis[(i + 1) % 2]!, (i === 0 ? first : second).bytes) });
    }
    const finished = await allFinished(items, 90_000);
    for (const item of items) {
      const record = finished.get(item.id)!;
      if (item.kind === 'note') {
        expect(record.status, JSON.stringify(record.error ?? null)).toBe('STATUS_DONE');
        expect((record.payload as { markdown: string }).markdown.length).toBeGreaterThan(20);
        expect(await readNote(apis[0]!, item.id)).toEqual(await readNote(apis[1]!, item.id));
      } else {
        expect(record.status, String(record.error ?? '')).toBe('completed');
        expect(String(record.text).split(/\s+/).length).toBeGreaterThan(3);
        expect(await readTranscription(apis[0]!, item.id)).toEqual(await readTranscription(apis[1]!, item.id));
      }
    }
    // Before the next test kills a worker, every announcement of this work has been delivered, so
    // no delivery can be cut in the middle and sent twice by design of at-least-once delivery.
    await until(() => [...expectedEvents].every((key) => receiver.counts().has(key)), 'the webhooks of the first batch', 30_000);
  }, 120_000);

  it('a worker killed with SIGKILL in the middle of a transcription loses nothing: the other worker finishes it', async () => {
    const [doomed, survivor] = workers as [Instance, Instance];
    const long = speechWav(
      'The patient is a fifty two year old man with chest pain for two days. He is short of breath on the stairs. We will order an electrocardiogram.',
    );
    // The survivor is paused while the job is handed out, so the doomed worker is the one that takes it.
    survivor.child.kill('SIGSTOP');
    let transcriptionId: string;
    let noteId: string;
    try {
      transcriptionId = await submitAudio(apis[0]!, long.bytes);
      // Polled 4 times a second: the account's rate limit here is 60 per 5 s across both APIs, and on
      // a loaded machine the worker may take several seconds to claim the job (50 ms polling met a 429).
      await until(async () => (await readTranscription(apis[1]!, transcriptionId)).status === 'processing', 'the transcription to start', 30_000, 250);
      // A note queued meanwhile: the embedded writer has job slots of its own (one per engine), so
      // the doomed worker may take it beside the transcription; either way it must be finished.
      noteId = await submitNote(apis[1]!, TRANSCRIPTS[0]!);
      // The queue is shared: an API process, which runs no jobs, reports what the workers run.
      // Scraped until the queue's read shows the job: under load one scrape read the queue before the
      // worker's claim was visible (the job was already 'processing' in the transcription's row).
      let metrics = '';
      await until(async () => {
        metrics = await (await fetch(`${apis[1]!.base}/metrics`)).text();
        return /^clindoc_jobs_running\{kind="audio_transcription"\} 1$/m.test(metrics);
      }, 'the shared queue to report the running transcription', 30_000, 500);
      expect(metrics).toMatch(/^clindoc_jobs_running\{kind="audio_transcription"\} 1$/m);
      expect(metrics).toMatch(/^clindoc_jobs_queued\{kind="note_generation"\} \d+$/m);
      expect((await readTranscription(apis[0]!, transcriptionId)).status).toBe('processing');
      await doomed.kill9();
    } finally {
      survivor.child.kill('SIGCONT');
    }
    const finished = await allFinished([{ kind: 'audio', id: transcriptionId }, { kind: 'note', id: noteId }], 90_000);
    const transcription = finished.get(transcriptionId)!;
    expect(transcription.status, String(transcription.error ?? '')).toBe('completed');
    expect(Number(transcription.duration)).toBeGreaterThan(8);
    expect(String(transcription.text).split(/\s+/).length).toBeGreaterThan(8);
    expect(finished.get(noteId)!.status).toBe('STATUS_DONE');
    expect(await readTranscription(apis[0]!, transcriptionId)).toEqual(await readTranscription(apis[1]!, transcriptionId));
    for (const instance of [...apis, survivor]) expect((await fetch(`${instance.base}/readyz`)).status, instance.name).toBe(200);
  }, 120_000);

  it('the rate limit is one count across both APIs', async () => {
    const hit = async (api: Instance): Promise<Response> => fetch(`${api.base}/v1/webhooks`, { headers: authHeaders(burst) });
    // The burst must fit in one window: if the window the first request opens ends soon, start after it.
    const probe = await hit(apis[0]!);
    expect(probe.status).toBe(200);
    const reset = Number(probe.headers.get('x-ratelimit-reset'));
    if (reset < RATE_WINDOW_SECONDS - 1) await sleep(reset * 1000 + 200);
    // As many requests as the limit on each API: per-process counters would let every one through.
    const answers = await Promise.all(Array.from({ length: 2 * RATE_LIMIT }, (_, i) => hit(apis[i % 2]!)));
    const byApi = apis.map((_, a) => answers.filter((_, i) => i % 2 === a).map((r) => r.status));
    const passed = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(passed + refused.length).toBe(answers.length);
    expect(passed).toBeLessThanOrEqual(RATE_LIMIT);
    expect(refused.length).toBeGreaterThanOrEqual(RATE_LIMIT);
    for (const statuses of byApi) expect(statuses).toContain(429);
    for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // The window passes and the account is served again, by either API.
    await sleep(Number(refused[0]!.headers.get('retry-after')) * 1000 + 200);
    await until(async () => (await hit(apis[1]!)).status === 200, 'the next window', RATE_WINDOW_SECONDS * 2000, 250);
  }, 60_000);

  it('delivers each webhook event exactly once, signed', async () => {
    await until(() => [...expectedEvents].every((key) => receiver.counts().has(key)), 'every webhook event', 60_000);
    // A duplicate could still come from a job or a delivery not finished yet (the killed worker's job
    // runs again once its lease expires): wait until the queue and the deliveries are all settled.
    await until(async () => {
      const [open] = await queryRows<{ jobs: number; deliveries: number }>(
        clinic.databaseUrl,
        `SELECT (SELECT count(*)::int FROM pgboss.job WHERE state IN ('created', 'retry', 'active')) AS jobs,
                (SELECT count(*)::int FROM webhook_deliveries WHERE status IN ('pending', 'delivering')) AS deliveries`,
      );
      return open!.jobs === 0 && open!.deliveries === 0;
    }, 'the job queue and the webhook deliveries to settle', (JOB_EXPIRE_SECONDS + 30) * 1000);
    const counts = receiver.counts();
    expect([...counts.keys()].sort()).toEqual([...expectedEvents].sort());
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(new Set(receiver.deliveries.map((d) => d.webhookId)).size).toBe(receiver.deliveries.length);
  }, 90_000);
});
