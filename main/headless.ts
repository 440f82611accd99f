import { ConfigError, loadConfig } from './config.js';
import { createClindoc } from './composition.js';

/**
 * Starts the local API without Electron (`npm run serve`): for integrations, tests and the
 * interface served to a browser. SIGINT/SIGTERM close it gracefully: running jobs finish or stay
 * queued for the next start, and the database is closed.
 */
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
  const port = await clindoc.listen();
  if (clindoc.localCredentials) {
    // The key is stored hashed in the database; the owner-only file keeps it for the app and for
    // `clindoc credentials`, which shows it again.
    process.stderr.write(
      `\nClindoc created the local account on first start.\n  X-ACCOUNT-ID: ${clindoc.localCredentials.accountId}\n  X-API-KEY: ${clindoc.localCredentials.apiKey}\n` +
        `(paste both lines into the connect form; \`clindoc credentials\` shows them again)\n\n`,
    );
  }
  process.stderr.write(`Clindoc local API on http://${config.host}:${port}  (docs: /docs)\n`);
  let link: string | undefined;
  try {
    link = clindoc.signInLink();
  } catch {
    link = undefined; // no local account (accounts made with the CLI only): integrations use their own keys
  }
  // A one-click sign-in, as Jupyter prints one: the token works once, for ten minutes, and never is the key.
  if (link) process.stderr.write(`\nOpen Clindoc (sign-in link, works once within 10 minutes):\n  ${link}\n\n`);
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    clindoc.logger.info({ signal }, 'shutting down');
    clindoc.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`clindoc: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
