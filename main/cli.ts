/**
 * The `clindoc` command (bin/clindoc.js runs this file). Each command is one row of a table
 * (main/cli/account-commands.ts, data-commands.ts, server-commands.ts, config-command.ts) from which main/cli/program.ts
 * builds the argument parser and `clindoc --help` / `clindoc COMMAND --help`.
 */
import { runCli } from './cli/program.js';

runCli(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`clindoc: ${(err as Error).message}\n`);
  process.exit(1);
});
