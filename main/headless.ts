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
  const clindoc = createClindoc(config);
  const port = await clindoc.listen();
  if (clindoc.localCredentials) {
    // Printed once, on the first start only: the key is stored hashed from now on.
    process.stderr.write(
      `\nClindoc created the local account on first start.\n  X-ACCOUNT-ID: ${clindoc.localCredentials.accountId}\n  X-API-KEY:    ${clindoc.localCredentials.apiKey}\n` +
        `It is also kept (owner-only) in ${config.dataDir}/local-credentials.json for the desktop app.\n\n`,
    );
  }
  process.stderr.write(`Clindoc local API on http://${config.host}:${port}  (docs: /docs)\n`);
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
