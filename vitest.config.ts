import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Hang guards, not speed limits: a case waits for its events, and these only end one that never
    // comes. At 30 s, two suites at once on two cores (load ~12) ended cases that were working: the
    // first note of a server (33 s), an OpenAPI walk, a WebM stream decoded live.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Two cores: run files in a small pool so native engines and servers do not starve each other.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    pool: 'forks',
    setupFiles: ['test/support/dom-waits.ts'],
    // expect.poll waits for a state to arrive; its 1 s default is a clock a loaded machine misses.
    expect: { poll: { timeout: 60_000 } },
  },
});
