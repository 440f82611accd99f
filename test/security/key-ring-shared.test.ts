import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, TSX } from '../support/child.js';

// Instances of a clinic share one key ring on a shared folder. Started at the same moment, each
// must end up with the same active key: a ring written by a loser of the race would encrypt data
// under a key that the other instances never see.
const SCRIPT = `
import { openKeyRing } from ${JSON.stringify(join(ROOT, 'main/store/crypto/key-ring.ts'))};
const { RING_DIR: dir, RING_MASTER: masterHex, RING_START: startAt, RING_ROUNDS: rounds } = process.env;
const answers = [];
for (let round = 0; round < Number(rounds); round++) {
  while (Date.now() < Number(startAt) + round * 50) { /* start together */ }
  const ring = openKeyRing(dir + '/ring-' + round + '.json', Buffer.from(masterHex, 'hex'));
  answers.push(ring.activeKeyId + ':' + ring.key(ring.activeKeyId).toString('hex'));
}
process.stdout.write(JSON.stringify(answers));
`;

function run(dir: string, master: string, startAt: number, rounds: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, '--eval', SCRIPT], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RING_DIR: dir, RING_MASTER: master, RING_START: String(startAt), RING_ROUNDS: String(rounds) },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('a key ring shared by several instances', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is created once when instances start at the same time, and every instance holds its key', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clindoc-ring-'));
    const master = randomBytes(32).toString('hex');
    // Two processes (one per core) open 30 fresh rings at the same instants: the race is real.
    const rounds = 30;
    const startAt = Date.now() + 2500;
    const [first, second] = await Promise.all([run(dir, master, startAt, rounds), run(dir, master, startAt, rounds)]);
    expect(first).toHaveLength(rounds);
    for (const answer of first) expect(answer).toMatch(/^k[0-9a-z]+:[0-9a-f]{64}$/);
    expect(second).toEqual(first);
    // No temporary file is left beside the rings.
    expect(readdirSync(dir).filter((name) => !/^ring-\d+\.json$/.test(name))).toEqual([]);
  }, 60_000);
});
