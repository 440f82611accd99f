/**
 * What one `clindoc` command is: the words that name it, a summary, its arguments and options, and
 * the handler. main/cli/program.ts turns the tables of these (account-, data-, server- and
 * config-command.ts) into the argument parser and its help, so a command, its flags and its help text are written in one place.
 */
import type { CliSession } from './session.js';

export interface CliArgument {
  /** commander syntax: `<file>` required, `[tabular-xml]` optional. */
  name: string;
  summary: string;
}

export interface CliOption {
  /** commander syntax: `--name <name>`, `--json`, `--role <role>`. */
  flags: string;
  summary: string;
  /** The command refuses to run without it (and its help says so). */
  required?: boolean;
  choices?: readonly string[];
}

/** What a handler gets: its arguments in declared order, its options, and the session's resources. */
export interface CommandInput {
  args: readonly (string | undefined)[];
  /** A required (`<name>`) argument by position: commander refuses the command line without it. */
  arg(index: number): string;
  /** A string option by its camel-cased name (`keyFile` for `--key-file`). */
  text(option: string): string | undefined;
  flag(option: string): boolean;
  /** JSON with `--json`, else the text; one line to stdout. */
  print(json: unknown, text: string): void;
  out(line: string): void;
  session: CliSession;
}

export interface CliCommand {
  /** The words that name it: `accounts create`. */
  name: string;
  summary: string;
  args?: readonly CliArgument[];
  options?: readonly CliOption[];
  /** Resolves with the exit status when it is not 0. */
  run(input: CommandInput): Promise<number | void> | number | void;
}

/** `--json`, which every command that prints a result takes. */
export const JSON_OPTION: CliOption = { flags: '--json', summary: 'print the result as one line of JSON' };
