import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createWebhookDestinations, type Resolve } from '../../main/jobs/webhook-destination.js';
import { ConfigError, loadConfig } from '../../main/config.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';

/** A resolver that answers from a table (and counts the questions), as DNS would for these names. */
function tableResolver(table: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const names = tableResolver({
  'internal.clinic.test': ['10.0.0.5'],
  'printer.clinic.test': ['192.168.1.20'],
  'metadata.clinic.test': ['169.254.169.254'],
  'mixed.clinic.test': ['93.184.215.14', '10.0.0.7'],
  'ula.clinic.test': ['fd12:3456::1'],
  'public.example.test': ['93.184.215.14'],
  'lab.clinic.test': ['10.20.3.4'],
});

/** Every form the probe of issue 29 was delivered to, and what the refusal must name. */
const REFUSED: [string, RegExp][] = [
  ['https://169.254.169.254/latest/meta-data', /cloud metadata/],
  ['https://[::ffff:169.254.169.254]/', /IPv4-mapped/],
  ['https://[::ffff:a9fe:a9fe]/', /IPv4-mapped/],
  ['https://[fd00:ec2::254]/', /cloud metadata/],
  ['https://10.1.2.3/', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.254/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://[fd12:3456::1]/', /unique-local/],
  ['https://[fc00::1]/', /unique-local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://169.254.10.10/', /link-local/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://0.1.2.3/', /unspecified/],
  ['https://[::]/', /unspecified/],
  ['https://127.0.0.1/', /loopback/],
  ['https://127.9.9.9/', /loopback/],
  ['https://2130706433/', /loopback/], // decimal
  ['https://0x7f000001/', /loopback/], // hex
  ['https://0177.0.0.1/', /loopback/], // octal
  ['https://017700000001/', /loopback/], // octal, one number
  ['https://0x7f.1/', /loopback/], // hex, short form
  ['https://127.1/', /loopback/], // short form
  ['https://[::1]/', /loopback/],
  ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['https://[::ffff:127.0.0.1]/', /IPv4-mapped/],
  ['https://[::ffff:7f00:1]/', /IPv4-mapped/],
  ['https://[::ffff:0:7f00:1]/', /not a global unicast IPv6 address/], // IPv4-translated
  ['https://[400::1]/', /not a global unicast IPv6 address/],
  ['https://[::127.0.0.1]/', /IPv4-compatible/],
  ['https://[64:ff9b::a00:1]/', /NAT64/],
  ['https://[2002:a00:1::]/', /6to4/],
  ['https://224.0.0.1/', /multicast/],
  ['https://255.255.255.255/', /reserved/],
  ['https://localhost/', /resolves to a loopback address/],
  ['https://internal.clinic.test/', /resolves to a private address \(10\.0\.0\.5\)/],
  ['https://printer.clinic.test/', /resolves to a private address/],
  ['https://metadata.clinic.test/', /resolves to a cloud metadata address/],
  ['https://mixed.clinic.test/', /resolves to a private address \(10\.0\.0\.7\)/],
  ['https://ula.clinic.test/', /resolves to a unique-local address/],
];

/** The system resolver for localhost, the table for the test's names. */
const resolver: Resolve = async (host) => (host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : names(host));

describe('webhook destination policy', () => {
  it.each(REFUSED)('refuses %s without CLINDOC_WEBHOOK_ALLOW', async (url, reason) => {
    const policy = createWebhookDestinations({ allow: [], resolve: resolver });
    const refusal = policy.check(url);
    await expect(refusal).rejects.toMatchObject({ status: 400 });
    await expect(refusal).rejects.toThrow(reason);
    await expect(refusal).rejects.toThrow(/CLINDOC_WEBHOOK_ALLOW/);
    await expect(policy.resolveForDelivery(url)).rejects.toMatchObject({ status: 400 });
  });

  it('accepts public addresses, names that resolve only to them, and names that do not resolve yet (checked again at delivery)', async () => {
    const policy = createWebhookDestinations({ allow: [], resolve: resolver });
    await expect(policy.check('https://93.184.215.14/hook')).resolves.toBeUndefined();
    await expect(policy.check('https://[2606:2800:220:1::1]/hook')).resolves.toBeUndefined();
    await expect(policy.check('https://public.example.test/hook')).resolves.toBeUndefined();
    await expect(policy.check('https://not-yet.example.test/hook')).resolves.toBeUndefined();
    await expect(policy.resolveForDelivery('https://not-yet.example.test/hook')).rejects.toThrow(/does not resolve/);
    expect(await policy.resolveForDelivery('https://public.example.test/hook')).toMatchObject({ address: '93.184.215.14', family: 4 });
    // Plain http only on loopback; no credentials in the URL.
    await expect(policy.check('http://93.184.215.14/hook')).rejects.toThrow(/https, or http on a loopback address/);
    await expect(policy.check('https://user:pw@93.184.215.14/hook')).rejects.toThrow(/credentials/);
    await expect(policy.check('ftp://93.184.215.14/hook')).rejects.toThrow(/https/);
  });

  it('allows exactly what the operator names: loopback, or a CIDR range', async () => {
    const desktop = createWebhookDestinations({ allow: ['loopback'], resolve: resolver });
    await expect(desktop.check('http://127.0.0.1:9000/hook')).resolves.toBeUndefined();
    await expect(desktop.check('http://[::1]:9000/hook')).resolves.toBeUndefined();
    await expect(desktop.check('http://localhost:9000/hook')).resolves.toBeUndefined();
    // Allowing loopback allows neither its mapped form nor the rest of the private ranges.
    await expect(desktop.check('http://[::ffff:127.0.0.1]:9000/hook')).rejects.toThrow(/IPv4-mapped/);
    await expect(desktop.check('https://10.0.0.5/hook')).rejects.toThrow(/private/);
    await expect(desktop.check('https://169.254.169.254/')).rejects.toThrow(/metadata/);

    const clinic = createWebhookDestinations({ allow: ['10.20.0.0/16'], resolve: resolver });
    await expect(clinic.check('https://10.20.3.4/hook')).resolves.toBeUndefined();
    await expect(clinic.check('https://lab.clinic.test/hook')).resolves.toBeUndefined();
    await expect(clinic.check('https://10.21.0.1/hook')).rejects.toThrow(/private/);
    await expect(clinic.check('https://127.0.0.1/hook')).rejects.toThrow(/loopback/);
    // A range is still https-only: plain http stays on loopback.
    await expect(clinic.check('http://10.20.3.4/hook')).rejects.toThrow(/https/);
  });

  it('refuses a start with an entry that is neither loopback nor a range', () => {
    expect(() => loadConfig({ CLINDOC_WEBHOOK_ALLOW: 'loopback,10.0.0.0/33' }, '/')).toThrow(ConfigError);
    expect(() => loadConfig({ CLINDOC_WEBHOOK_ALLOW: 'everything' }, '/')).toThrow(/CLINDOC_WEBHOOK_ALLOW/);
    expect(loadConfig({ CLINDOC_WEBHOOK_ALLOW: 'loopback, 10.20.0.0/16 ,fd00:1::/32' }, '/').webhookAllow).toEqual(['loopback', '10.20.0.0/16', 'fd00:1::/32']);
  });
});

describe('webhook destinations through the API', () => {
  let strict: TestServer;
  let receiver: Server;
  let port: number;
  const hits: IncomingHttpHeaders[] = [];
  // Names the tests own: the system resolver knows none of them, so a delivery that arrives went to the address checked.
  const dns: Record<string, string[]> = { localhost: ['127.0.0.1'], 'hooks.desktop.test': ['127.0.0.1'], 'moving.example.test': ['93.184.215.14'] };
  const asked: string[] = [];
  const resolve: Resolve = async (host) => {
    asked.push(host);
    const found = dns[host];
    if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: 4 }));
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      hits.push(req.headers);
      req.resume();
      res.end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    port = (receiver.address() as { port: number }).port;
    strict = await startServer({ CLINDOC_WEBHOOK_ALLOW: '' }, { webhookResolve: resolve, webhookRetryDelaysMs: [3_600_000] });
  });
  afterAll(async () => {
    await strict.close();
    receiver.closeAllConnections();
    receiver.close();
  });

  const register = (s: TestServer, url: string): Promise<Response> =>
    fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ url }) });

  it('answers 400 in the contract body for every refused form, and stores none of them', async () => {
    for (const [url, reason] of REFUSED.filter(([u]) => !/clinic\.test/.test(u))) {
      const res = await register(strict, url);
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as { error: number; message: string };
      expect(body.error).toBe(400);
      expect(body.message).toMatch(reason);
    }
    expect(await (await fetch(`${strict.base}/v1/webhooks`, { headers: strict.headers() })).json()).toMatchObject({ data: [] });
  });

  it('checks again at delivery: a name that moved to a refused address after registration gets nothing', async () => {
    expect((await register(strict, `https://moving.example.test:${port}/hook`)).status).toBe(201);
    dns['moving.example.test'] = ['127.0.0.1']; // DNS rebinding onto this computer
    const note = (await (await fetch(`${strict.base}/v1/notes`, { method: 'POST', headers: strict.headers(), body: JSON.stringify({ transcript: '[doctor] Any cough? [patient] No.' }) })).json()) as { data: { noteId: string } };
    const attempt = await waitFor(async () => (await strict.query<{ error: string | null; status_code: number | null }>(
      'SELECT a.error, a.status_code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.resource_id = ?', [note.data.noteId],
    ))[0], 60_000);
    expect(attempt).toEqual({ error: 'destination refused', status_code: null });
    expect(hits).toHaveLength(0);
  }, 120_000); // a note is written first: slow on a loaded machine

  it('connects to the checked address: one lookup per attempt, the URL\'s name in Host', async () => {
    const desktop = await startServer({}, { webhookResolve: resolve }); // CLINDOC_WEBHOOK_ALLOW=loopback (support default)
    try {
      const url = `http://hooks.desktop.test:${port}/hook`;
      expect((await register(desktop, url)).status).toBe(201);
      asked.length = 0;
      const note = (await (await fetch(`${desktop.base}/v1/notes`, { method: 'POST', headers: desktop.headers(), body: JSON.stringify({ transcript: '[doctor] Any fever? [patient] No.' }) })).json()) as { data: { noteId: string } };
      await waitFor(async () => (hits.length > 0 ? true : undefined), 60_000);
      expect(hits[0]!.host).toBe(`hooks.desktop.test:${port}`);
      expect(hits[0]!['webhook-id']).toMatch(/^msg_/);
      const delivered = await waitFor(async () => (await desktop.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE resource_id = ?', [note.data.noteId]))[0]?.status === 'delivered' ? true : undefined, 60_000);
      expect(delivered).toBe(true);
      expect(asked).toEqual(['hooks.desktop.test']);
    } finally {
      await desktop.close();
    }
  }, 120_000);
});
