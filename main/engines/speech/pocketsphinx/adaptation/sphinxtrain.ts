/**
 * Adapts Debian's en-us acoustic model to one speaker with Debian's sphinxtrain, as CMUSphinx's
 * "Adapting the default acoustic model" describes: MFCC features (`sphinx_fe`), Baum-Welch
 * statistics (`bw`), an MLLR transform of the means (`mllr_solve`, `mllr_transform`), statistics
 * again on the transformed model, then MAP re-estimation (`map_adapt`) on top of it. Debian's model
 * needs a text mdef for `bw` (`pocketsphinx_mdef_convert -text`) and float mixture weights rebuilt
 * from its `sendump` (sendump.ts).
 *
 * Every tool is spawned with an argument array (no shell), in a private temporary folder that is
 * removed afterwards, with a time limit. A failure names the tool and its exit, never the text.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { engineUnavailable } from '../../../../services/errors.js';
import type { AdaptationUtterance, VoiceAdapter } from '../../../../services/voice-adaptation/ports.js';
import { encodeWav } from '../../openai-compatible.js';
import { packModel, privateFolder } from './model-folder.js';
import { sendumpToMixtureWeights } from './sendump.js';

export interface SphinxtrainOptions {
  /** Debian's model folder (`en-us/` inside). Default `/usr/share/pocketsphinx/model/en-us`. */
  modelDir?: string;
  /** Pronunciation dictionary: the one the recogniser decodes with, so every word it knows can be aligned. */
  dictPath: string;
  /** Where Debian puts sphinxtrain's programs. Default `/usr/lib/sphinxtrain`. */
  toolsDir?: string;
  /** `sphinx_fe` and `pocketsphinx_mdef_convert` (sphinxbase-utils, pocketsphinx); default found on the PATH. */
  sphinxFe?: string;
  mdefConvert?: string;
  /** Time limit of each tool, ms. Default 120 000. */
  timeoutMs?: number;
}

const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us';
const FEATURES = ['-feat', '1s_c_d_dd', '-svspec', '0-12/13-25/26-38', '-agc', 'none'];

/** Words as the dictionary spells them: lower case, letters and apostrophes. */
export function alignmentText(text: string): string {
  return text.toLowerCase().replace(/[^a-z']+/g, ' ').replace(/\s+/g, ' ').trim();
}

function run(file: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const tool = file.split('/').pop() ?? file;
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) => {
      if (err) {
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        reject(new Error(e.killed ? `${tool} ran past its time limit` : e.code === 'ENOENT' ? `${tool} is not installed` : `${tool} failed (exit ${String(e.code)})`));
        return;
      }
      resolve(`${stdout}\n${stderr}`);
    });
  });
}

/** Whether Debian's sphinxtrain and the sphinxbase tools are installed here. */
export function sphinxtrainInstalled(options: Pick<SphinxtrainOptions, 'toolsDir'> = {}): boolean {
  const tools = options.toolsDir ?? '/usr/lib/sphinxtrain';
  return ['bw', 'mllr_solve', 'mllr_transform', 'map_adapt'].every((t) => existsSync(join(tools, t)));
}

export function createSphinxtrainAdapter(options: SphinxtrainOptions): VoiceAdapter {
  const modelDir = options.modelDir ?? DEBIAN_MODEL;
  const base = join(modelDir, 'en-us');
  const tools = options.toolsDir ?? '/usr/lib/sphinxtrain';
  const timeoutMs = options.timeoutMs ?? 120_000;
  return {
    async adapt(utterances: AdaptationUtterance[]) {
      if (!sphinxtrainInstalled({ toolsDir: tools })) throw engineUnavailable('voice adaptation needs Debian\'s sphinxtrain package, which is not installed here');
      const work = privateFolder();
      try {
        const ids: string[] = [];
        const lines: string[] = [];
        for (const [i, u] of utterances.entries()) {
          const words = alignmentText(u.text);
          if (!words) continue;
          const id = `u${String(i).padStart(4, '0')}`;
          await writeFile(join(work, `${id}.wav`), encodeWav(u.pcm, 16000), { mode: 0o600 });
          ids.push(id);
          lines.push(`<s> ${words} </s> (${id})`);
        }
        await writeFile(join(work, 'fileids'), `${ids.join('\n')}\n`);
        await writeFile(join(work, 'transcription'), `${lines.join('\n')}\n`);
        await writeFile(join(work, 'mixture_weights'), sendumpToMixtureWeights(await readFile(join(base, 'sendump'))));
        await run(options.mdefConvert ?? 'pocketsphinx_mdef_convert', ['-text', join(base, 'mdef'), 'mdef.txt'], work, timeoutMs);
        await run(options.sphinxFe ?? 'sphinx_fe', ['-argfile', join(base, 'feat.params'), '-samprate', '16000', '-c', 'fileids', '-di', '.', '-do', '.', '-ei', 'wav', '-eo', 'mfc', '-mswav', 'yes'], work, timeoutMs);
        const cmnInit = /-cmninit\s+(\S+)/.exec(await readFile(join(base, 'feat.params'), 'utf8'))?.[1];
        // Live CMN seeded from the model's own initial means: batch CMN failed to align about half
        // of the utterances of a feasibility run, live aligned all of them.
        const stats = (means: string, accum: string) => run(join(tools, 'bw'), [
          '-moddeffn', 'mdef.txt', '-ts2cbfn', '.ptm.', ...FEATURES, '-cmn', 'live', ...(cmnInit ? ['-cmninit', cmnInit] : []),
          '-meanfn', means, '-varfn', join(base, 'variances'), '-mixwfn', 'mixture_weights', '-tmatfn', join(base, 'transition_matrices'),
          '-fdictfn', join(base, 'noisedict'), '-dictfn', options.dictPath, '-ctlfn', 'fileids', '-lsnfn', 'transcription', '-accumdir', accum,
        ], work, timeoutMs);
        await mkdir(join(work, 'acc1'));
        const log = await stats(join(base, 'means'), 'acc1');
        const dropped = (log.match(/ ignored$|Skipped utterance/gm) ?? []).length;
        const used = ids.length - dropped;
        if (used <= 0) throw new Error('no recording could be aligned with its sentence');
        await run(join(tools, 'mllr_solve'), ['-meanfn', join(base, 'means'), '-varfn', join(base, 'variances'), '-outmllrfn', 'mllr_matrix', '-accumdir', 'acc1'], work, timeoutMs);
        await run(join(tools, 'mllr_transform'), ['-inmeanfn', join(base, 'means'), '-outmeanfn', 'mllr_means', '-mllrmat', 'mllr_matrix'], work, timeoutMs);
        await mkdir(join(work, 'acc2'));
        await stats('mllr_means', 'acc2');
        await mkdir(join(work, 'out'));
        await run(join(tools, 'map_adapt'), [
          '-moddeffn', 'mdef.txt', '-ts2cbfn', '.ptm.', '-meanfn', 'mllr_means', '-varfn', join(base, 'variances'), '-mixwfn', 'mixture_weights',
          '-tmatfn', join(base, 'transition_matrices'), '-accumdir', 'acc2', '-mapmeanfn', 'out/means', '-mapvarfn', 'out/variances',
          '-mapmixwfn', 'out/mixture_weights', '-maptmatfn', 'out/transition_matrices',
        ], work, timeoutMs);
        const files: Record<string, Buffer> = {};
        for (const name of ['means', 'variances', 'mixture_weights', 'transition_matrices']) files[name] = await readFile(join(work, 'out', name));
        // MLLR alone as well: with little speech MAP can overfit (a real reader's 20 s made it worse), so the caller measures both.
        const mllrOnly = packModel({
          means: await readFile(join(work, 'mllr_means')), variances: await readFile(join(base, 'variances')),
          mixture_weights: await readFile(join(work, 'mixture_weights')), transition_matrices: await readFile(join(base, 'transition_matrices')),
        });
        return { models: [{ method: 'mllr+map' as const, model: packModel(files) }, { method: 'mllr' as const, model: mllrOnly }], used };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}
