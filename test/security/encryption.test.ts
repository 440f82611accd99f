import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { runCli } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { loadConfig } from '../../main/config.js';
import { createClindoc } from '../../main/composition.js';
import { openKeyRing, KeyRingError } from '../../main/store/crypto/key-ring.js';
import { createFieldCipher, DecryptionError } from '../../main/store/crypto/field-cipher.js';
import { createFileBlobStore } from '../../main/store/blob-store.js';
import { keysReferenced, reencryptAll } from '../../main/store/crypto/reencrypt.js';
import { generatedKeyPath, keyRingPath } from '../../main/store/crypto/master-key.js';
import { loadKeychainKey, keychainKeyPath, type SafeStorageLike } from '../../main/app/keychain-key.js';
import { authHeaders, filesUnder, markedWav } from './helpers.js';

const MARKER = 'ZEBRAFISHQUOKKA';

describe('key ring and ciphers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-ring-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a wrong master key instead of writing data nobody could read later', () => {
    const master = randomBytes(32);
    openKeyRing(join(dir, 'a.json'), master);
    expect(() => openKeyRing(join(dir, 'a.json'), randomBytes(32))).toThrow(KeyRingError);
    expect(statSync(join(dir, 'a.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps old values readable after rotation and detects a value moved to another row', () => {
    const ring = openKeyRing(join(dir, 'b.json'), randomBytes(32));
    const cipher = createFieldCipher(ring);
    const old = cipher.seal(`note about ${MARKER}`, 'notes.markdown:n1');
    const first = ring.activeKeyId;
    const second = ring.rotate();
    expect(second).not.toBe(first);
    const fresh = cipher.seal('new', 'notes.markdown:n2');
    expect(cipher.keyIdOf(old)).toBe(first);
    expect(cipher.keyIdOf(fresh)).toBe(second);
    expect(cipher.open(old, 'notes.markdown:n1')).toBe(`note about ${MARKER}`);
    expect(cipher.needsReseal(old)).toBe(true);
    expect(cipher.needsReseal(fresh)).toBe(false);
    expect(old).not.toContain(MARKER);
    // Copying a sealed value into another row (or account) does not make it readable there.
    expect(() => cipher.open(old, 'notes.markdown:n2')).toThrow(DecryptionError);
    const flipped = old.slice(0, -6) + (old.at(-6) === 'A' ? 'B' : 'A') + old.slice(-5);
    expect(() => cipher.open(flipped, 'notes.markdown:n1')).toThrow(DecryptionError);
  });

  it('answers a value read again from memory, but never in another row, after tampering or once its key is pruned', () => {
    const ring = openKeyRing(join(dir, 'b2.json'), randomBytes(32));
    const cipher = createFieldCipher(ring, { cacheChars: 10_000 });
    const first = cipher.seal(`first ${MARKER}`, 'notes.markdown:n1');
    // A value sealed by another process (no memory of it here) opens, then opens again the same.
    const elsewhere = createFieldCipher(ring).seal(`second ${MARKER}`, 'notes.markdown:n2');
    expect(cipher.open(elsewhere, 'notes.markdown:n2')).toBe(`second ${MARKER}`);
    expect(cipher.open(elsewhere, 'notes.markdown:n2')).toBe(`second ${MARKER}`);
    expect(cipher.open(first, 'notes.markdown:n1')).toBe(`first ${MARKER}`);
    // Remembered values are tied to their context: moved to another row they still fail.
    expect(() => cipher.open(first, 'notes.markdown:n2')).toThrow(DecryptionError);
    expect(() => cipher.open(elsewhere, 'notes.json:n2')).toThrow(DecryptionError);
    const flipped = elsewhere.slice(0, -6) + (elsewhere.at(-6) === 'A' ? 'B' : 'A') + elsewhere.slice(-5);
    expect(() => cipher.open(flipped, 'notes.markdown:n2')).toThrow(DecryptionError);
    // A pruned key opens nothing, remembered or not.
    ring.rotate();
    expect(ring.prune()).toHaveLength(1);
    expect(() => cipher.open(first, 'notes.markdown:n1')).toThrow(DecryptionError);
    // With no memory (the default) nothing is kept: the same answers, each from the key.
    const plain = createFieldCipher(ring);
    const fresh = plain.seal('third', 'notes.markdown:n3');
    expect(plain.open(fresh, 'notes.markdown:n3')).toBe('third');
  });

  it('still opens values that no longer fit in its memory', () => {
    const ring = openKeyRing(join(dir, 'b3.json'), randomBytes(32));
    const cipher = createFieldCipher(ring, { cacheChars: 2_000 });
    const sealed = Array.from({ length: 20 }, (_, i) => cipher.seal(`${i} ${'x'.repeat(300)}`, `notes.markdown:m${i}`));
    // The memory holds about three of these (each counted with its sealed text): the others have left
    // it and are decrypted again, each to its own value.
    sealed.forEach((value, i) => expect(cipher.open(value, `notes.markdown:m${i}`)).toBe(`${i} ${'x'.repeat(300)}`));
  });

  it('encrypts audio blobs, round-trips them and rejects a tampered file', async () => {
    const ring = openKeyRing(join(dir, 'c.json'), randomBytes(32));
    const blobs = createFileBlobStore(join(dir, 'blobs'), ring);
    const audio = Buffer.from(markedWav(MARKER, 1));
    const { key, bytes } = await blobs.write(Readable.from([audio.subarray(0, 1000), audio.subarray(1000)]), 10_000_000);
    expect(bytes).toBe(audio.length);
    expect(readFileSync(blobs.pathOf(key)).includes(Buffer.from(MARKER))).toBe(false);
    let copyPath = '';
    const back = await blobs.withPlaintext(key, async (path) => {
      copyPath = path;
      expect(statSync(path).mode & 0o777).toBe(0o600);
      return readFileSync(path);
    });
    expect(back.equals(audio)).toBe(true);
    expect(() => statSync(copyPath)).toThrow(); // the plaintext copy is gone afterwards
    const file = readFileSync(blobs.pathOf(key));
    file[file.length - 40]! ^= 1;
    writeFileSync(blobs.pathOf(key), file);
    await expect(blobs.withPlaintext(key, async () => 'used')).rejects.toThrow(/authentication/);
  });
});

describe('the data folder holds no plaintext patient data', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('stores notes, transcriptions, templates, macros, idempotent replies and audio only encrypted', async () => {
    const h = s.headers();
    const note = await (await fetch(`${s.base}/v1/notes`, {
      method: 'POST', headers: h,
      body: JSON.stringify({ transcript: `[doctor] Mr ${MARKER} reports a cough for two days. [patient] Yes, and a fever.`, patientInfo: { name: MARKER }, noteType: { type: 'soap', includeJson: true } }),
    })).json();
    const done = await waitFor(async () => {
      const r = await (await fetch(`${s.base}/v1/notes/${note.data.noteId}`, { headers: h })).json();
      return r.data.status === 'STATUS_DONE' || r.data.status === 'STATUS_FAILED' ? r : undefined;
    });
    expect(done.data.status).toBe('STATUS_DONE');
    const template = { id: 'tpl-1', title: `Clinic of ${MARKER}`, global_prompt: MARKER, sections: [{ id: 's', type: 'text', prompt: MARKER, properties: {} }] };
    expect((await fetch(`${s.base}/v1/note-templates`, { method: 'POST', headers: h, body: JSON.stringify(template) })).status).toBeLessThan(300);
    const macro = { id: 'm1', examples: ['normal chest exam'], expansion_text: `Chest clear, ${MARKER}.` };
    expect((await fetch(`${s.base}/v1/macro-library`, { method: 'POST', headers: h, body: JSON.stringify(macro) })).status).toBeLessThan(300);
    const detect = await fetch(`${s.base}/v1/macros/detect`, {
      method: 'POST', headers: { ...h, 'Idempotency-Key': 'replay-1' },
      body: JSON.stringify({ text: `${MARKER} has a normal chest exam`, macros: [macro] }),
    });
    expect(detect.status).toBe(200);
    const upload = await (await fetch(`${s.base}/v2/audio/transcriptions?diarization=false`, {
      method: 'POST', headers: { ...h, 'content-type': 'audio/wav' }, body: markedWav(MARKER, 1),
    })).json();
    const transcription = await waitFor(async () => {
      const r = await (await fetch(`${s.base}/v2/audio/transcriptions/${upload.id}`, { headers: h })).json();
      return r.status === 'completed' || r.status === 'failed' ? r : undefined;
    });
    expect(transcription.status).toBe('completed'); // the engines read the audio through its decrypted copy

    // The API still serves everything in the clear to its owner...
    const stored = await (await fetch(`${s.base}/v1/note-templates/tpl-1`, { headers: h })).json();
    expect(JSON.stringify(stored)).toContain(MARKER);
    const replay = await fetch(`${s.base}/v1/macros/detect`, {
      method: 'POST', headers: { ...h, 'Idempotency-Key': 'replay-1' }, body: JSON.stringify({ text: `${MARKER} has a normal chest exam`, macros: [macro] }),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toContain(MARKER);
    expect(JSON.stringify((await (await fetch(`${s.base}/v1/notes/${note.data.noteId}`, { headers: h })).json()).data.payload)).toContain('cough');

    const hook = await (await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: h, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) })).json();
    expect(hook.data.secret.length).toBeGreaterThan(20);

    // ...while no file in the data folder (database, WAL, blobs) and no table of a PostgreSQL
    // database holds the marker, and neither do the logs.
    expect(await s.storedContaining(hook.data.secret)).toEqual([]); // webhook signing secrets are sealed too
    expect(filesUnder(s.dataDir).some((f) => f.includes('blobs'))).toBe(true);
    expect(await s.storedContaining(MARKER)).toEqual([]);
    expect(await s.storedContaining('cough for two days')).toEqual([]);
    expect(s.logs.join('\n')).not.toContain(MARKER);
  });

  it('keeps every file of the data folder owner-only', () => {
    for (const file of filesUnder(s.dataDir)) expect(statSync(file).mode & 0o077, file).toBe(0);
  });

  // A clinic server (PostgreSQL) must be given CLINDOC_ENCRYPTION_KEY, shared by every instance:
  // no key is generated into its data folder, so there is no generated key to check.
  it.skipIf(onPostgres)('generated the fallback key owner-only and warned about it once', () => {
    expect(statSync(generatedKeyPath(s.dataDir)).mode & 0o777).toBe(0o600);
    expect(statSync(keyRingPath(s.dataDir)).mode & 0o777).toBe(0o600);
    expect(s.logs.filter((l) => l.includes('generated a data encryption key'))).toHaveLength(1);
  });
});

describe('key rotation', () => {
  it('writes new data under the new key, reads old data, and re-encrypts everything on request', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-rotate-'));
    const env = { CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'silent', CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const silent = { write: () => true } as unknown as NodeJS.WritableStream;
    try {
      let app = await createClindoc(loadConfig(env, dataDir), { logDestination: silent as never });
      let port = await app.listen();
      const creds = app.localCredentials!;
      const post = async (id: string) =>
        (await fetch(`http://127.0.0.1:${port}/v1/macro-library`, { method: 'POST', headers: authHeaders(creds), body: JSON.stringify({ id, examples: ['x'], expansion_text: `${MARKER} ${id}` }) })).status;
      expect(await post('before')).toBeLessThan(300);
      const first = app.protection.ring.activeKeyId;
      const audio = await (await fetch(`http://127.0.0.1:${port}/v2/audio/transcriptions`, { method: 'POST', headers: authHeaders(creds, { 'content-type': 'audio/wav' }), body: markedWav(MARKER) })).json();
      await app.close();

      // The CLI rotates while the app is stopped; a new start uses the new key for new writes.
      const rotated = await runCli(['keys', 'rotate-encryption', '--json'], env);
      expect(rotated.code).toBe(0);
      const second = (JSON.parse(rotated.stdout) as { activeKeyId: string }).activeKeyId;
      expect(second).not.toBe(first);
      app = await createClindoc(loadConfig(env, dataDir), { logDestination: silent as never });
      port = await app.listen();
      expect(await post('after')).toBeLessThan(300);
      const get = async (id: string) => (await fetch(`http://127.0.0.1:${port}/v1/macro-library/${id}`, { headers: authHeaders(creds) })).status;
      expect(await get('before')).toBe(200);
      expect(await get('after')).toBe(200);
      const blobs = createFileBlobStore(join(dataDir, 'blobs'), app.protection.ring);
      expect(keysReferenced(app.db, app.protection.cipher, blobs)).toEqual(new Set([first, second]));

      // Re-encryption moves every value and audio file to the active key; pruning then drops the old one.
      const report = await reencryptAll(app.db, app.protection.cipher, blobs);
      expect(report.values).toBe(2); // the first macro's body and the transcription's options
      expect(report.blobs).toBe(1);
      expect(report.keysInUse).toEqual([second]);
      expect(app.protection.ring.prune((id) => report.keysInUse.includes(id))).toEqual([first]);
      await app.close();
      app = await createClindoc(loadConfig(env, dataDir), { logDestination: silent as never });
      port = await app.listen();
      expect(app.protection.ring.keyIds()).toEqual([second]);
      expect(await get('before')).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/v2/audio/transcriptions/${audio.id}`, { headers: authHeaders(creds) })).status).toBe(200);
      await app.close();

      // A wrong master key stops start-up rather than serving or writing garbage.
      await expect(createClindoc(loadConfig({ ...env, CLINDOC_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, dataDir), { logDestination: silent as never }))
        .rejects.toThrow(KeyRingError);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('desktop keychain key (Electron safeStorage)', () => {
  // Stands in for the OS keychain: a real cipher under a key the "OS" holds, not the data folder.
  const osKey = randomBytes(32);
  const keychain: SafeStorageLike = {
    isEncryptionAvailable: () => true,
    encryptString: (text) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', osKey, iv);
      const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), ct]);
    },
    decryptString: (sealed) => {
      const d = createDecipheriv('aes-256-gcm', osKey, sealed.subarray(0, 12));
      d.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString('utf8');
    },
  };

  it('keeps the master key only under the keychain, moving a headless-generated key there', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-keychain-'));
    try {
      const generated = randomBytes(32);
      writeFileSync(generatedKeyPath(dataDir), generated.toString('base64'), { mode: 0o600 });
      const key = loadKeychainKey(keychain, dataDir)!;
      expect(key.equals(generated)).toBe(true);
      expect(() => statSync(generatedKeyPath(dataDir))).toThrow(); // plaintext copy removed
      const sealed = readFileSync(keychainKeyPath(dataDir));
      expect(sealed.includes(Buffer.from(generated.toString('base64')))).toBe(false);
      expect(statSync(keychainKeyPath(dataDir)).mode & 0o777).toBe(0o600);
      expect(loadKeychainKey(keychain, dataDir)!.equals(generated)).toBe(true);
      expect(loadKeychainKey({ ...keychain, isEncryptionAvailable: () => false }, dataDir)).toBeUndefined();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
