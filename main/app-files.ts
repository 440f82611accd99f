/**
 * The one module that knows where Clindoc's own files are: the resources bundled with the app
 * (clinical language model, prompts, code tables, model catalog) and the built interface. Everything else gets
 * these paths from here, through the configuration, so the app finds its files whatever the
 * working directory: a systemd unit, a desktop launcher, `cd /tmp && node .../main/headless.ts`.
 *
 * Where they are:
 * - from source or a build under the repository (`tsx main/...`, `dist/main/...`): the repository
 *   found by walking up from this module to Clindoc's `package.json`;
 * - in the packaged Electron app: `process.resourcesPath/resources/...` (electron-builder's
 *   `extraResources`) and the interface inside the app archive (`<appPath>/dist/renderer`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** Absolute paths of the app's bundled files. */
export interface AppFiles {
  /** `repository` when run from a checkout (source or build), `packaged` inside the Electron package. */
  layout: 'repository' | 'packaged';
  /** Clinical language model of the embedded recogniser (`clinical.lm.bin` or `clinical.lm`, `clinical.dict`). */
  asrDir: string;
  /** Prompt files of the language-model writers (`note.md`, `style.md`, `extraction.md`). */
  promptsDir: string;
  /** Medical code tables (ICD-10-CM, CPT) for coding analysis, once they ship. */
  codesDir: string;
  /** The model catalog (`catalog.json`: recommended speech and language models to download) and measured engine quality (`quality.json`). */
  modelsDir: string;
  /** The built interface served at `/` (`npm run build:renderer`). */
  rendererDir: string;
}

export interface LocateOptions {
  /** Electron's `process.resourcesPath`; given (by main/app) only when the app is packaged. */
  resourcesPath?: string;
  /** Electron's `app.getAppPath()` in the packaged app: the archive holding `dist/renderer`. */
  appPath?: string;
  /** Folder to start the search for the repository from; default this module's folder. */
  from?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The nearest folder at or above `start` whose package.json is Clindoc's. */
export function findRepositoryRoot(start: string): string | undefined {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'clindoc') return dir;
      } catch {
        // An unreadable package.json is not ours; keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function underResources(resources: string, layout: AppFiles['layout'], rendererDir: string): AppFiles {
  return {
    layout,
    asrDir: join(resources, 'asr'),
    promptsDir: join(resources, 'prompts'),
    codesDir: join(resources, 'codes'),
    modelsDir: join(resources, 'models'),
    rendererDir,
  };
}

/**
 * Locates the bundled files. Never looks at the working directory: the answer is the same from
 * any folder.
 */
export function locateAppFiles(options: LocateOptions = {}): AppFiles {
  if (options.resourcesPath) {
    const appPath = options.appPath ?? join(options.resourcesPath, 'app.asar');
    return underResources(join(options.resourcesPath, 'resources'), 'packaged', join(appPath, 'dist', 'renderer'));
  }
  // From main/ (source) or dist/main/ (build) the walk ends at the repository; this module's
  // parent folder is the last resort, which is the repository root in the source layout.
  const root = findRepositoryRoot(options.from ?? here) ?? join(here, '..');
  // Inside the packaged app the walk ends in the app archive, which holds no resources folder:
  // Electron's resources path does (for callers that were not handed it).
  const electronResources = (process as { resourcesPath?: string }).resourcesPath;
  if (!existsSync(join(root, 'resources')) && electronResources && existsSync(join(electronResources, 'resources'))) {
    return underResources(join(electronResources, 'resources'), 'packaged', join(root, 'dist', 'renderer'));
  }
  return underResources(join(root, 'resources'), 'repository', join(root, 'dist', 'renderer'));
}

/** One bundled file that is absent, described for a start-up warning (paths only, never content). */
export interface MissingFile {
  what: string;
  path: string;
  consequence: string;
}

/**
 * The bundled files that are absent, besides the clinical language model (whose file names the
 * speech engine knows; composition checks it through the engine). Callers log these as warnings
 * at start-up and carry on: the interface falls back to a placeholder page, and prompts are only
 * needed when a language model is configured (pass `promptsDir` only then).
 */
export function missingAppFiles(files: { rendererDir: string; promptsDir?: string }): MissingFile[] {
  const missing: MissingFile[] = [];
  if (files.promptsDir !== undefined && !existsSync(join(files.promptsDir, 'note.md'))) {
    missing.push({ what: 'prompt files', path: files.promptsDir, consequence: 'notes and styles written by the language model will fail' });
  }
  if (!existsSync(join(files.rendererDir, 'index.html'))) {
    missing.push({ what: 'interface bundle', path: files.rendererDir, consequence: '/ serves a placeholder page (build it with `npm run build:renderer`)' });
  }
  return missing;
}

/**
 * The instructions of model-based extraction (`extraction.md`, one plain system prompt). Absent or
 * unreadable, extraction keeps to the embedded reader and the start goes on, with a warning.
 */
export function readExtractionPrompt(promptsDir: string, logger: Pick<Logger, 'warn'>, warn: boolean): string | undefined {
  const path = join(promptsDir, 'extraction.md');
  try {
    return readFileSync(path, 'utf8');
  } catch {
    if (warn) logger.warn({ path }, 'bundled extraction prompt missing: text-to-JSON uses the embedded reader only');
    return undefined;
  }
}
