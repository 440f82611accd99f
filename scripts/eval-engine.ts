/**
 * `--engine NAME` for the quality scripts (`npm run eval:wer -- --engine whisper-base`,
 * `npm run eval:notes -- --engine llama-3-2-3b-instruct`): the engine Clindoc itself would run for
 * that name, from the same configuration (environment) and the models installed in its data folder,
 * so a user can measure an installed model before trusting it.
 */
import { join } from 'node:path';
import { loadConfig } from '../main/config.js';
import { openDatabase } from '../main/store/database.js';
import { composeModelManager } from '../main/compose-models.js';
import { composeEngines, type EngineRegistry, type EngineTask } from '../main/compose-engines.js';
import { createRobustVad, createSileroVad } from '../main/engines/vad/index.js';
import type { ModelService } from '../main/services/models/model-service.js';

/** The value of `--engine` on the command line, if given. */
export function engineArg(argv: string[] = process.argv): string | undefined {
  const i = argv.indexOf('--engine');
  return i > 0 ? argv[i + 1] : undefined;
}

/**
 * Opens the engines Clindoc would use here. Reads the installed models once (the data folder's
 * database is opened and closed again; nothing in it is changed). Exits with the names that exist
 * when `name` is none of them.
 */
export async function openEngine(task: EngineTask, name: string): Promise<{ registry: EngineRegistry; close(): Promise<void> }> {
  const config = loadConfig();
  const db = openDatabase(join(config.dataDir, 'clindoc.db'));
  let installed: ReturnType<ModelService['installed']>;
  try {
    const { service } = composeModelManager(config, db, { warn: (m: string) => console.log(`warning: ${m}`) });
    await service.refreshInstalled();
    installed = service.installed();
  } finally {
    db.close();
  }
  let silero: ReturnType<typeof createSileroVad> | undefined;
  const registry = composeEngines(config, {
    logger: { info: () => undefined }, installedModels: () => installed,
    batchVad: () => createRobustVad({ model: (silero ??= createSileroVad()) }),
    pocketsphinxFiles: { medical: config.asrMedical, resourcesDir: config.resources.asrDir },
  });
  if (!registry.describe(task, name)) {
    const names = task === 'speech' ? registry.speechNames() : registry.textNames();
    console.error(`--engine ${name}: not configured or installed here (${task} engines: ${names.join(', ')}; install models with \`clindoc models pull ID\`)`);
    process.exit(2);
  }
  return {
    registry,
    async close() {
      await registry.close();
      await silero?.close();
    },
  };
}
