/**
 * Honest engine status (`GET /v1/engines`): for each task, which engine answers this account now,
 * whether it is embedded, a downloaded model or a server, what the repository's own evaluation
 * scripts measured for it (with date and machine), and what a physician should know before
 * trusting its output. Figures are data (`resources/models/quality.json`), never computed here.
 */
import type { EngineHealth, EngineMeasurement, EngineQualityFile, EnginesStatus, EngineTaskStatus } from '../../../shared/api/models.js';
import type { EngineSettingsService } from '../transcriptions/engine-settings.js';

/** What an engine name stands for on this device (composition's engine registry). */
export interface EngineFacts {
  engine: string;
  model?: string;
  kind: 'embedded' | 'model' | 'server';
  loaded: boolean;
  /** Speech: whether it recognises while the speaker talks (partial words). */
  streaming?: boolean;
}

export interface EngineStatusService {
  status(accountId: string): Promise<EnginesStatus>;
}

const one = (wer: number): string => `about one word in ${Math.max(2, Math.round(100 / wer))}`;

export function createEngineStatusService(deps: {
  settings: Pick<EngineSettingsService, 'get'> & Partial<Pick<EngineSettingsService, 'resolve' | 'resolveNotes'>>;
  describe: (task: 'speech' | 'text', name: string) => EngineFacts | undefined;
  /** How the engine's recent calls and background checks went (the engine registry). */
  health?: (task: 'speech' | 'text', name: string) => EngineHealth;
  quality: EngineQualityFile;
  /**
   * Whether extraction and coding may use a language model (the extraction instructions are
   * installed): they follow the account's note engine then; otherwise they are always embedded.
   */
  modelReading?: boolean;
}): EngineStatusService {
  /** Every figure of the engine for the task (each names its model), those of the engine's current model first. */
  const measured = (task: EngineMeasurement['task'], facts: Pick<EngineFacts, 'engine' | 'model'>): EngineMeasurement[] => {
    const all = deps.quality.measurements.filter((m) => m.task === task && m.engine === facts.engine);
    return [...all.filter((m) => m.model === facts.model), ...all.filter((m) => m.model !== facts.model)];
  };
  /** The real-speech word error rate closest to how the engine runs: same mode if measured (any model), else batch. */
  const realSpeech = (list: EngineMeasurement[], mode: 'batch' | 'streaming'): EngineMeasurement | undefined => {
    const real = list.filter((m) => m.metric === 'WER' && m.set.startsWith('real'));
    return real.find((m) => m.mode === mode) ?? real.find((m) => m.mode === 'batch');
  };

  /** The engine's health for models and servers, with a warning first when it is down. */
  const healthOf = (task: 'speech' | 'text', name: string, facts: EngineFacts, warnings: string[], instead: string): Partial<EngineTaskStatus> => {
    if (facts.kind === 'embedded' || !deps.health) return {};
    const health = deps.health(task, name);
    if (health.status === 'down') {
      warnings.unshift(`Down since ${health.lastFailureAt}: ${health.lastFailure}. Until it answers, ${instead} (unless the account chose to fail instead).`);
    }
    return { health };
  };

  const speech = (task: 'dictation' | 'transcription', name: string, choice: EngineTaskStatus['choice'], clinicalMissing: boolean): EngineTaskStatus => {
    const facts = deps.describe('speech', name) ?? { engine: name, kind: 'model' as const, loaded: false };
    const quality = measured('speech', facts);
    const warnings: string[] = [];
    if (facts.engine === 'pocketsphinx') {
      const live = realSpeech(quality, task === 'dictation' ? 'streaming' : 'batch');
      const clinical = quality.find((m) => m.metric === 'WER' && m.set.startsWith('synthetic clinical'));
      if (live) {
        warnings.push(`Embedded recogniser: expect ${one(live.value)} wrong on real speech (${live.value}% word error rate ${live.mode === 'streaming' ? 'live' : 'on recordings'}, measured ${live.date})` +
          `${clinical ? `, and most drug and anatomy words missed (${clinical.value}% on synthetic clinical dictation)` : ''}; install a speech model (Settings > Engines > Models).`);
      }
      if (clinicalMissing) warnings.push('The clinical vocabulary is not loaded: the general English model misses more medical words.');
    } else if (quality.length === 0) {
      warnings.push(`Not measured on this computer: run \`npm run eval:wer -- --engine ${name}\` and read a few transcripts before relying on it.`);
    }
    if (task === 'dictation' && facts.streaming === false) warnings.push('No words appear while speaking: each utterance is written when it ends.');
    if (facts.kind === 'server') warnings.push('Audio is sent to the chosen transcription server: use one the clinic runs or trusts.');
    const health = healthOf('speech', name, facts, warnings, 'recordings are transcribed by the embedded recogniser');
    return status(task, facts, choice, quality, warnings, { ...(task === 'dictation' ? { partials: facts.streaming ?? false } : {}), ...health });
  };

  const text = (task: 'notes' | 'extraction' | 'coding', name: string | undefined, choice: EngineTaskStatus['choice']): EngineTaskStatus => {
    const facts = name ? (deps.describe('text', name) ?? { engine: name, kind: 'model' as const, loaded: false }) : { engine: 'embedded', kind: 'embedded' as const, loaded: true };
    const quality = measured(task === 'notes' ? 'text' : task, facts);
    const warnings: string[] = [];
    const figure = quality[0];
    if (facts.engine === 'embedded' && figure) {
      if (task === 'notes') warnings.push(`Embedded writer: the note is assembled by rules from what the transcript says (ROUGE-1 ${figure.value} on ACI-Bench, where GPT-4 scores 51.8; measured ${figure.date}); a language model writes smoother notes (Settings > Engines > Models). Read every note before signing.`);
      if (task === 'extraction') warnings.push(`Embedded reader: ${figure.value}% of fields right on held-out text (measured ${figure.date}); check extracted values.`);
      if (task === 'coding') warnings.push(`Suggestions to check, not codes to bill: full-code F1 ${figure.value} on ${figure.set} (measured ${figure.date}).`);
    } else if (quality.length === 0) {
      const script = task === 'notes' ? `\`npm run eval:notes -- --engine ${name}\`` : 'the evaluation scripts';
      warnings.push(`Not measured on this computer: run ${script} and read its output before relying on it.`);
    }
    if (facts.kind === 'server') warnings.push('Text is sent to the chosen language-model server: use one the clinic runs or trusts.');
    const health = name ? healthOf('text', name, facts, warnings, 'notes are written by the embedded writer') : {};
    return status(task, facts, choice, quality, warnings, health);
  };

  return {
    async status(accountId) {
      const s = await deps.settings.get(accountId);
      const clinicalMissing = s.asrEngine === 'pocketsphinx' && !s.clinicalLanguageModel.loaded;
      // The registry's names (an account's own server goes by a name of its own).
      const asr = (await deps.settings.resolve?.(accountId)) ?? s.asrEngine;
      const notes = (await deps.settings.resolveNotes?.(accountId)) ?? s.noteEngine;
      return {
        tasks: [
          speech('dictation', asr, s.source, clinicalMissing),
          speech('transcription', asr, s.source, clinicalMissing),
          text('notes', notes, s.noteSource),
          // Both follow the account's note engine (one choice of text engine per account).
          text('extraction', deps.modelReading ? notes : undefined, deps.modelReading ? s.noteSource : 'device'),
          text('coding', deps.modelReading ? notes : undefined, deps.modelReading ? s.noteSource : 'device'),
        ],
      };
    },
  };
}

function status(
  task: EngineTaskStatus['task'], facts: EngineFacts, choice: EngineTaskStatus['choice'], quality: EngineMeasurement[], warnings: string[], extra: Partial<EngineTaskStatus>,
): EngineTaskStatus {
  return {
    task, engine: facts.engine, ...(facts.model ? { model: facts.model } : {}), kind: facts.kind, choice,
    ...(facts.kind === 'model' ? { loaded: facts.loaded } : {}), ...extra, quality, warnings,
  };
}
