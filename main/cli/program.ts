/**
 * The `clindoc` argument parser, built from the command table with commander (maintained, no
 * dependencies, generates each command's help from what is declared). Every command, its
 * arguments, its options and its help come from one row of the table; nothing is parsed by hand.
 *
 * Exit statuses: 0 done (and for --help); 1 the command was refused or failed (`clindoc: why`);
 * 2 a usage mistake (unknown command or option, a missing argument) or a configuration error.
 */
import { Command, CommanderError, Option } from 'commander';
import { ACCOUNT_COMMANDS } from './account-commands.js';
import type { CliCommand, CommandInput } from './command.js';
import { CONFIG_COMMANDS } from './config-command.js';
import { DATA_COMMANDS } from './data-commands.js';
import { SERVER_COMMANDS } from './server-commands.js';
import { CliFailure, createCliSession } from './session.js';

export const COMMANDS: readonly CliCommand[] = [...ACCOUNT_COMMANDS, ...DATA_COMMANDS, ...SERVER_COMMANDS, ...CONFIG_COMMANDS];

/** What the first word of a two-word command stands for, in `clindoc --help`. */
const GROUPS: Record<string, string> = {
  accounts: 'accounts, their operator role and how long their data is kept',
  keys: 'API keys, and the key that encrypts stored data',
  data: 'stored data (re-encryption)',
  codes: 'ICD-10-CM code sets',
  models: 'speech and language models on this computer',
};

/** Every command on one line each, for the end of `clindoc --help`. */
function everyCommand(): string {
  const usage = (c: CliCommand): string => [
    `clindoc ${c.name}`,
    ...(c.args ?? []).map((a) => a.name),
    ...(c.options ?? []).map((o) => (o.required ? o.flags : `[${o.flags}]`)),
  ].join(' ');
  // A group's commands together, in the order the groups first appear.
  const firstWord = (c: CliCommand): string => c.name.split(' ')[0]!;
  const order = [...new Set(COMMANDS.map(firstWord))];
  const listed = [...COMMANDS].sort((a, b) => order.indexOf(firstWord(a)) - order.indexOf(firstWord(b)));
  return ['', 'Every command (clindoc COMMAND --help explains one):', ...listed.map((c) => `  ${usage(c)}`), '',
    'Environment: CLINDOC_DATA_DIR selects the data folder; every variable is in README "Configuration".'].join('\n');
}

/** The parser: commander's program with one subcommand per table row, each running `handle`. */
export function buildProgram(handle: (command: CliCommand, parsed: Command) => Promise<void>): Command {
  const program = new Command('clindoc')
    .description('Clindoc from a terminal: accounts and keys, backups, models and code sets, the server itself')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`clindoc: ${text.replace(/^error: /, '')}`) })
    .showHelpAfterError('(clindoc --help lists every command)')
    .addHelpText('after', everyCommand());
  const groups = new Map<string, Command>();
  for (const spec of COMMANDS) {
    const words = spec.name.split(' ');
    let parent = program;
    if (words.length === 2) {
      const group = words[0]!;
      parent = groups.get(group) ?? program.command(group).description(GROUPS[group] ?? group);
      groups.set(group, parent);
    }
    const command = parent.command(words[words.length - 1]!).description(spec.summary);
    for (const argument of spec.args ?? []) command.argument(argument.name, argument.summary);
    for (const option of spec.options ?? []) {
      const declared = new Option(option.flags, option.required ? `${option.summary} (required)` : option.summary);
      if (option.choices) declared.choices(option.choices);
      if (option.required) declared.makeOptionMandatory();
      command.addOption(declared);
    }
    command.action(() => handle(spec, command));
  }
  return program;
}

/** A `<name>` argument is present once commander accepted the line; a missing one is a table mistake. */
function requiredArgument(args: readonly unknown[], index: number, command: string): string {
  const value = args[index];
  if (typeof value !== 'string') throw new Error(`clindoc ${command}: argument ${index} is not declared as required in the command table`);
  return value;
}

/** Runs one command with a fresh session, closed afterwards whatever happens. */
async function runCommand(spec: CliCommand, parsed: Command): Promise<void> {
  const options = parsed.opts<Record<string, string | boolean | undefined>>();
  const session = createCliSession();
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const input: CommandInput = {
    args: parsed.processedArgs,
    arg: (index) => requiredArgument(parsed.processedArgs, index, spec.name),
    text: (name) => (typeof options[name] === 'string' ? options[name] : undefined),
    flag: (name) => options[name] === true,
    print: (json, text) => out(options.json === true ? JSON.stringify(json) : text),
    out,
    session,
  };
  try {
    const status = await spec.run(input);
    if (status) process.exitCode = status;
  } finally {
    await session.close();
  }
}

/** `clindoc ARGS…`: parses, runs, and turns every failure into `clindoc: why` and an exit status. */
export async function runCli(argv: readonly string[]): Promise<void> {
  const program = buildProgram(runCommand);
  if (!argv.length) {
    program.outputHelp();
    return;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // commander has printed its message (or the help) already.
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    if (err instanceof CliFailure) exit(err.message, err.code);
    exit((err as Error).message, 1);
  }
}

function exit(message: string, code: number): never {
  process.stderr.write(`clindoc: ${message}\n`);
  process.exit(code);
}
