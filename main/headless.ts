import { ConfigError, loadConfig } from './config.js';
import { createClindoc, localCredentialsPath, saveLocalCredentials } from './composition.js';

/**
 * Starts the local API without Electron (`npm run serve`, `clindoc serve`): for integrations,
 * tests, the interface served to a browser and clinic servers. SIGTERM/SIGINT drain it: no new
 * connections, `/readyz` answers 503 at once, requests in flight and running jobs get
 * CLINDOC_DRAIN_SECONDS to finish (unfinished jobs stay queued for the next start), live
 * dictation sockets get the protocol's close, the database is closed, and the process exits 0.
 * Work still running 5 s after that period, or a second signal while draining, exits with 1.
 */
/** Time allowed after the drain period for closing the engines and the database. */
const DRAIN_MARGIN_MS = 5000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`clindoc: configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const clindoc = await createClindoc(config);
  // The local account this first start made is kept for the app and `clindoc credentials` (owner-only).
  saveLocalCredentials(config.dataDir, clindoc.localCredentials);
  // Handlers first: a signal that arrives once `local API listening` is logged (a service manager
  // or a test stopping it at once) is drained, not left to Node's default of dying on the spot.
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) {
      clindoc.logger.warn({ signal }, 'second signal while draining: exiting now');
      process.exit(1);
    }
    closing = true;
    clindoc.logger.info({ signal, drainSeconds: config.drainSeconds }, 'draining');
    // Work still running past the grace period (a recognition the engines will not abandon) is not
    // waited for: its job stays claimed in the database and runs again at the next start.
    setTimeout(() => {
      clindoc.logger.warn({ drainSeconds: config.drainSeconds }, 'drain period over with work unfinished: exiting; unfinished jobs run again at the next start');
      process.exit(1);
    }, config.drainSeconds * 1000 + DRAIN_MARGIN_MS).unref();
    clindoc.close({ graceMs: config.drainSeconds * 1000 }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const port = await clindoc.listen();
  // Secrets go to a person at a terminal, never to a log: under a service manager, or with output
  // sent to a file or a pipe, stdout is no TTY, and only where to find them is said (issue 29: the
  // first start wrote the key, and every start a sign-in link, to stderr, which is the journal).
  const terminal = process.stdout.isTTY === true;
  if (clindoc.localCredentials) {
    // The key is stored hashed in the database; the owner-only file keeps it for the app and for
    // `clindoc credentials`, which shows it again.
    if (terminal) {
      process.stdout.write(
        `\nClindoc created the local account on first start.\n  X-ACCOUNT-ID: ${clindoc.localCredentials.accountId}\n  X-API-KEY: ${clindoc.localCredentials.apiKey}\n` +
          `(paste both lines into the connect form; \`clindoc credentials\` shows them again)\n\n`,
      );
    } else {
      process.stderr.write(`\nClindoc created the local account on first start; its id and key are in ${localCredentialsPath(config.dataDir)} (owner-only). ` +
        'Run `clindoc credentials` in a terminal to see them.\n\n');
    }
  }
  process.stderr.write(config.role === 'worker'
    ? `Clindoc worker on ${config.host}:${port}: background jobs and webhooks; /healthz, /readyz and /metrics only\n`
    : `Clindoc local API on ${config.tls ? 'https' : 'http'}://${config.host}:${port}  (docs: /docs)\n`);
  if (!terminal) return;
  let link: string | undefined;
  try {
    link = clindoc.signInLink();
  } catch {
    link = undefined; // no local account (accounts made with the CLI only): integrations use their own keys
  }
  // A one-click sign-in, as Jupyter prints one: the token works once, for ten minutes, and never is the key.
  if (link) process.stdout.write(`\nOpen Clindoc (sign-in link, works once within 10 minutes):\n  ${link}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`clindoc: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
