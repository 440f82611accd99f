/**
 * `clindoc models list|pull|import|verify|rm`: the model manager from a terminal, on the same
 * data folder as the server (it may be running). A pull runs in the foreground with a progress
 * bar (cli-progress); Ctrl-C cancels it and the next pull resumes where it stopped.
 */
import { SingleBar, Presets } from 'cli-progress';
import type { ModelPullView, ModelView } from '../../shared/api/models.js';
import type { ModelService } from '../services/models/model-service.js';
import { benchLine, type BenchResult } from './models-bench.js';

export interface ModelsCommandIo {
  out(line: string): void;
  err(line: string): void;
  json: boolean;
  /** The terminal progress bar is drawn here (stderr); tests read the printed lines instead. */
  barStream?: NodeJS.WritableStream;
  /** Figures `models bench` stored for an installed model, and the measurement itself (cli.ts supplies both). */
  benchOf?: (id: string) => BenchResult | undefined;
  bench?: (id: string, audio?: string) => Promise<BenchResult>;
}

const mb = (bytes: number | null | undefined): string => (bytes === null || bytes === undefined ? '?' : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 0)} MB`);

function describe(m: ModelView, bench?: BenchResult): string {
  const state = m.installed ? `installed ${mb(m.bytes)}` : m.pull && m.pull.status !== 'done' ? `download ${m.pull.status}` : `not installed (~${mb(m.approxBytes)})`;
  const trust = m.catalog ? "publisher's SHA-256" : 'imported, hashes recorded at import';
  const speed = m.installed ? `; ${benchLine(bench)}` : '';
  return `${m.id.padEnd(24)} ${m.task.padEnd(6)} ${m.engine.padEnd(12)} ${state.padEnd(26)} ${trust}${m.catalog ? `  [${m.catalog.recommendedFor}; ${m.catalog.licence.name}${speed}]` : speed ? `  [${speed.slice(2)}]` : ''}`;
}

function hashes(m: ModelView): string[] {
  return (m.files ?? []).map((f) => `  sha256 ${f.sha256}  ${f.path} (${f.hashSource === 'publisher' ? "publisher's" : 'recorded at import'})`);
}

/** What an import found in the model's own header, in one line. */
function inspection(m: ModelView): string[] {
  const i = m.inspected;
  if (!i) return [];
  const params = i.parameters === null ? 'parameters not stated' : `${i.parameters >= 1e9 ? `${(i.parameters / 1e9).toFixed(1)}B` : i.parameters >= 1e6 ? `${(i.parameters / 1e6).toFixed(1)}M` : i.parameters} parameters`;
  return [`  ${i.format.toUpperCase()}: architecture ${i.architecture}, ${params}, quantisation ${i.quantisation ?? 'not stated'}`];
}

/** Runs one `models` subcommand; resolves with the exit code. */
export async function runModelsCommand(service: ModelService, action: string | undefined, arg: string | undefined, options: { id?: string; audio?: string }, io: ModelsCommandIo): Promise<number> {
  const print = (json: unknown, text: string): void => io.out(io.json ? JSON.stringify(json) : text);
  switch (action) {
    case 'list': {
      const items = await service.list();
      print(items.map((m) => ({ ...m, ...(io.benchOf?.(m.id) ? { measured: io.benchOf(m.id) } : {}) })),
        items.length ? items.map((m) => describe(m, io.benchOf?.(m.id))).join('\n') : 'no models in the catalog and none installed');
      return 0;
    }
    case 'pull': {
      if (!arg) throw new Error('usage: clindoc models pull ID');
      const pull = await service.pull('cli', arg);
      const bar = io.json ? undefined : new SingleBar({
        format: `${arg} [{bar}] {percentage}% | {value}/{total} MB | {file}`, stream: io.barStream ?? process.stderr, noTTYOutput: true, notTTYSchedule: 1000,
        hideCursor: true,
      }, Presets.shades_classic);
      const toMb = (n: number): number => Math.round(n / 1e5) / 10;
      bar?.start(toMb(pull.totalBytes ?? 0) || 1, 0, { file: '' });
      // Ctrl-C stops the download; runPull then returns and the status below says so.
      const cancel = (): void => void service.cancelPull(arg).catch((err: unknown) => io.err(`${arg}: could not cancel: ${(err as Error).message}`));
      process.once('SIGINT', cancel);
      let last: ModelPullView = pull;
      try {
        await service.runPull(pull.id, (p) => {
          last = p;
          if (p.totalBytes && p.receivedBytes > p.totalBytes) bar?.setTotal(toMb(p.receivedBytes));
          bar?.update(toMb(p.receivedBytes), { file: p.file ?? '' });
        });
      } catch (err) {
        // Interrupted (no connection, or it failed repeatedly): the partial files stay for the next pull.
        const message = (err as Error).message;
        await service.failPull(pull.id, message.startsWith('no connection') ? message : `interrupted: ${message}; run the command again to resume`);
      } finally {
        process.off('SIGINT', cancel);
        bar?.stop();
      }
      last = await service.latestPull(arg);
      if (last.status !== 'done') {
        io.err(`${arg}: download ${last.status}${last.error ? `: ${last.error}` : ''}${last.status === 'cancelled' ? ' (run it again to resume)' : ''}`);
        if (io.json) print(last, '');
        return 1;
      }
      const model = await service.get(arg);
      print(model, [`${arg} installed (${mb(model.bytes)})`, ...hashes(model)].join('\n'));
      return 0;
    }
    case 'import': {
      if (!arg) throw new Error('usage: clindoc models import PATH [--id ID]');
      const model = await service.importFrom(arg, options.id);
      print(model, [`${model.id} installed from ${arg} (${model.engine}, ${mb(model.bytes)})`, ...inspection(model), ...hashes(model)].join('\n'));
      return 0;
    }
    case 'verify': {
      if (!arg) throw new Error('usage: clindoc models verify ID');
      const result = await service.verify(arg);
      print(result, result.files.map((f) => `${f.ok ? 'ok     ' : 'CHANGED'} ${f.path}${f.ok ? '' : ` (expected ${f.expected}, found ${f.actual ?? 'no file'})`}`).join('\n'));
      return result.ok ? 0 : 1;
    }
    case 'bench': {
      if (!arg || !io.bench) throw new Error('usage: clindoc models bench ID [--audio FILE]');
      const r = await io.bench(arg, options.audio);
      const speed = r.tokensPerSecond !== undefined
        ? `${r.tokensPerSecond} tokens/s generating ${r.tokens} tokens`
        : `real-time factor ${r.realTimeFactor} on ${r.audioSeconds} s of audio`;
      print(r, `${r.id}: ${speed}; loaded in ${r.loadSeconds} s; ${r.memoryMb} MB of memory; measured ${r.date} on ${r.machine}`);
      return 0;
    }
    case 'rm': {
      if (!arg) throw new Error('usage: clindoc models rm ID');
      const removed = await service.remove(arg);
      print({ removed: arg, what: removed }, removed === 'model' ? `removed ${arg}` : `${arg} was not installed; removed its unfinished download`);
      return 0;
    }
    default:
      throw new Error('usage: clindoc models list|pull ID|import PATH [--id ID]|verify ID|bench ID [--audio FILE]|rm ID');
  }
}
