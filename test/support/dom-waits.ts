/**
 * Interface tests wait for what the page shows, not for a clock: Testing Library's `waitFor` and
 * `findBy…` give up after one second by default, which a loaded machine (two suites at once on two
 * cores) overran while a real server answered. The wait ends when the page shows the awaited
 * state; this is only how long a page that never gets there is given.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 60_000 });
}
