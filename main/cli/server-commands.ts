/**
 * The commands that run or talk to Clindoc: `serve` (the API and its jobs), `stream` (the reference
 * client of the live socket) and `models …` (the model manager, on the same data folder as a
 * running server).
 */
import { join } from 'node:path';
import { DomainError } from '../services/errors.js';
import { JSON_OPTION, type CliCommand, type CommandInput } from './command.js';
import { fail } from './session.js';

const MODEL_ID = { name: '<id>', summary: 'the model\'s id (models list)' } as const;

/** Runs one `models` subcommand through the model manager; resolves with its exit status. */
async function models(input: CommandInput, action: string): Promise<number> {
  const config = input.session.config();
  const db = input.session.database();
  const { composeModelManager, modelsFolder } = await import('../compose-models.js');
  const { runModelsCommand } = await import('./models-command.js');
  try {
    const { service } = composeModelManager(config, db, { warn: input.session.warn });
    const { benchModel, readBench } = await import('./models-bench.js');
    const folderOf = (id: string): string => join(modelsFolder(config.dataDir), id);
    const id = input.text('id');
    const audio = input.text('audio');
    return await runModelsCommand(service, action, input.args[0], { ...(id ? { id } : {}), ...(audio ? { audio } : {}) }, {
      json: input.flag('json'), out: input.out, err: (line) => process.stderr.write(`clindoc: ${line}\n`),
      benchOf: (model) => readBench(folderOf(model)),
      bench: async (model, file) => {
        await service.refreshInstalled();
        const installed = service.installed().find((m) => m.id === model);
        if (!installed) throw new DomainError('not_found', `${model.slice(0, 40)} is not installed: nothing to measure (clindoc models list)`);
        return benchModel(config, installed, folderOf(model), file);
      },
    });
  } catch (err) {
    // The model manager's own refusals (not found, conflict) are 1; a usage or unexpected error 2.
    return fail((err as Error).message, err instanceof DomainError ? 1 : 2);
  }
}

export const SERVER_COMMANDS: readonly CliCommand[] = [
  {
    name: 'serve',
    summary: 'run the API and background jobs (as npm run serve); SIGTERM drains it. On a clinic server: api answers requests, worker runs jobs (default all)',
    options: [{ flags: '--role <role>', summary: 'what this process does (CLINDOC_ROLE)', choices: ['api', 'worker', 'all'] }],
    async run(input) {
      // The same program as `npm run serve`: configuration, start, signals and drain are headless.ts's.
      const role = input.text('role');
      if (role !== undefined) process.env.CLINDOC_ROLE = role;
      await import('../headless.js');
    },
  },
  {
    name: 'stream',
    summary: 'stream an audio file at real-time pace and print partial and final lines',
    args: [{ name: '<file>', summary: 'the audio file (container audio, or raw with --encoding)' }],
    options: [
      { flags: '--url <url>', summary: 'the server (default ws://127.0.0.1:CLINDOC_PORT)' },
      { flags: '--account <id>', summary: 'the account (default CLINDOC_ACCOUNT_ID)' },
      { flags: '--key <key>', summary: 'its API key (default CLINDOC_API_KEY)' },
      { flags: '--token <token>', summary: 'a streaming token instead of the key' },
      { flags: '--encoding <enc>', summary: 'raw audio of this encoding (linear16, linear32, alaw, mulaw)' },
      { flags: '--sample-rate <n>', summary: 'sample rate of raw audio' },
      { flags: '--dictation', summary: 'apply the dictation rules (spoken punctuation, numbers, units, dates)' },
      { flags: '--fast', summary: 'send as fast as the socket takes it instead of at real-time pace' },
    ],
    async run(input) {
      const file = input.arg(0);
      const { streamFile } = await import('./stream-command.js');
      const accountId = input.text('account') ?? process.env.CLINDOC_ACCOUNT_ID;
      if (!accountId) fail('stream needs --account (or CLINDOC_ACCOUNT_ID)');
      const apiKey = input.text('key') ?? process.env.CLINDOC_API_KEY;
      const [token, encoding, sampleRate] = [input.text('token'), input.text('encoding'), input.text('sampleRate')];
      await streamFile({
        file, url: input.text('url') ?? `ws://127.0.0.1:${process.env.CLINDOC_PORT ?? '8080'}`, accountId,
        ...(apiKey ? { apiKey } : {}), ...(token ? { token } : {}), ...(encoding ? { encoding } : {}), ...(sampleRate ? { sampleRate: Number(sampleRate) } : {}),
        dictation: input.flag('dictation'), realtime: !input.flag('fast'), out: input.out,
      });
    },
  },
  { name: 'models list', summary: 'recommended speech and language models and those installed here', options: [JSON_OPTION], run: (input) => models(input, 'list') },
  {
    name: 'models pull', summary: 'download a catalog model with a progress bar (Ctrl-C cancels; run again to resume)',
    args: [MODEL_ID], options: [JSON_OPTION], run: (input) => models(input, 'pull'),
  },
  {
    name: 'models import', summary: 'install a .gguf file or a model folder from this computer (USB stick, share)',
    args: [{ name: '<path>', summary: 'the .gguf file or model folder' }], options: [{ flags: '--id <id>', summary: 'the id to install it under' }, JSON_OPTION],
    run: (input) => models(input, 'import'),
  },
  { name: 'models verify', summary: 'check an installed model\'s files against their recorded SHA-256', args: [MODEL_ID], options: [JSON_OPTION], run: (input) => models(input, 'verify') },
  {
    name: 'models bench', summary: 'measure an installed model here: tokens/s (language), real-time factor on FILE (speech), memory',
    args: [MODEL_ID], options: [{ flags: '--audio <file>', summary: 'the recording a speech model transcribes' }, JSON_OPTION], run: (input) => models(input, 'bench'),
  },
  { name: 'models rm', summary: 'remove an installed model', args: [MODEL_ID], options: [JSON_OPTION], run: (input) => models(input, 'rm') },
];
