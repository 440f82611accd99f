import { useCallback, useEffect, useState } from 'react';
import type { EnginesStatus, ModelView } from '../../shared/api/models.js';
import type { EngineSettings } from '../api/types.js';
import type { EngineSettingsBody } from '../../shared/api/schemas.js';
import { AccountServers } from './engine-server-form.js';
import { useConnection } from '../state/stores.js';
import { CopyField } from './copy-field.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { ModelsPanel } from './models-panel.js';

const ENGINE_NAMES: Record<string, string> = {
  pocketsphinx: 'Embedded (pocketsphinx)', 'onnx-ctc': 'ONNX CTC model', 'onnx-whisper': 'ONNX Whisper model', 'openai-compatible': 'OpenAI-compatible server',
  embedded: 'Embedded writer (no model)', 'llama-cpp': 'Local GGUF model (llama.cpp)', 'account-server': "This account's server",
};
const nameOf = (engine: string, models: ModelView[]): string => ENGINE_NAMES[engine] ?? models.find((m) => m.id === engine)?.title ?? engine;

/** Whether the embedded recogniser has its clinical vocabulary, in words a clinic's IT person can act on. */
function ClinicalModelLine({ model }: { model: EngineSettings['clinicalLanguageModel'] }) {
  if (model.loaded) return <p className="hint" data-testid="clinical-model">Clinical language model: loaded{model.path ? ` from ${model.path}` : ''}.</p>;
  const why = model.reason === 'disabled'
    ? 'turned off (CLINDOC_ASR_MEDICAL=0)'
    : `not found${model.path ? ` in ${model.path}` : ''}; reinstall Clindoc or run scripts/build-medical-lm.ts`;
  return <p className="hint" data-testid="clinical-model">Clinical language model: not loaded, {why}. The embedded recogniser uses the general English model, which misses more medical words.</p>;
}

type Choice = EngineSettingsBody;

const TASK_NAMES: Record<string, string> = {
  dictation: 'Dictation', transcription: 'Recordings', notes: 'Notes', extraction: 'Text to JSON', coding: 'Coding',
};
const KIND_NAMES = { embedded: 'embedded, no download', model: 'model on this computer', server: 'server' } as const;

/** What answers each task now, how good it measured, and what to keep in mind: the honest status. */
function EngineStatusList({ status, models }: { status: EnginesStatus | undefined; models: ModelView[] }) {
  if (!status) return null;
  return (
    <ul className="engine-status" aria-label="Engines in use">
      {status.tasks.map((t) => (
        <li key={t.task} data-task={t.task}>
          <strong>{TASK_NAMES[t.task] ?? t.task}:</strong> {nameOf(t.model && models.some((m) => m.id === t.model) ? t.model : t.engine, models)}
          {t.model && !models.some((m) => m.id === t.model) ? ` (${t.model})` : ''} · {KIND_NAMES[t.kind]}
          {t.loaded !== undefined ? (t.loaded ? ' · loaded' : ' · not loaded (loads on first use)') : ''}
          {t.health && t.health.status !== 'unknown' && (
            <span className={t.health.status === 'down' ? 'warning' : 'hint'} data-health={t.health.status}>
              {t.health.status === 'down' ? ' · DOWN' : ` · answering${t.health.latencyMs !== null ? ` (${t.health.latencyMs} ms)` : ''}`}
            </span>
          )}
          {t.quality.length > 0 && (
            <span className="hint"> · measured: {t.quality.map((q) => `${q.metric} ${q.value}${q.unit === '%' ? '%' : q.unit ? ` ${q.unit}` : ''} (${q.mode === 'streaming' ? 'live, ' : ''}${q.model ? `${q.model}, ` : ''}${q.set.split(':')[0]}, ${q.date})`).join('; ')}</span>
          )}
          {t.warnings.map((w) => <p key={w} className="warning">{w}</p>)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The account's engines, live settings of the local API: the recogniser for dictation and
 * recordings, and the writer of notes. A choice applies to the next dictation, recording and note;
 * a model that cannot load is refused with the reason and the previous engine stays.
 */
function AccountEngines({ settings, models, choose, saving, saved, error }: {
  settings: EngineSettings | undefined; models: ModelView[]; choose: (c: Choice) => void; saving: boolean; saved: string | undefined; error: string | undefined;
}) {
  return (
    <div className="grid">
      <label>
        Recogniser for dictation and recordings (this account)
        <select value={settings?.source === 'account' ? settings.asrEngine : ''} disabled={!settings || saving} onChange={(e) => choose({ asrEngine: e.target.value || null })}>
          <option value="">Device default{settings?.source === 'default' ? ` (${nameOf(settings.asrEngine, models)})` : ''}</option>
          {(settings?.available ?? []).map((x) => <option key={x} value={x}>{nameOf(x, models)}</option>)}
        </select>
      </label>
      <label>
        Note writer (this account)
        <select value={settings?.noteSource === 'account' ? settings.noteEngine : ''} disabled={!settings || saving} onChange={(e) => choose({ noteEngine: e.target.value || null })}>
          <option value="">Device default{settings?.noteSource === 'default' ? ` (${nameOf(settings.noteEngine, models)})` : ''}</option>
          {(settings?.noteAvailable ?? []).map((x) => <option key={x} value={x}>{nameOf(x, models)}</option>)}
        </select>
      </label>
      {settings?.clinicalLanguageModel && <ClinicalModelLine model={settings.clinicalLanguageModel} />}
      <AccountServers settings={settings} saving={saving} choose={choose} />
      {saving && <StatusMessage>Loading or testing the chosen engine…</StatusMessage>}
      {saved && <StatusMessage>{saved}</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </div>
  );
}

/** The account's engine choices and the device's models, kept in step (installing a model offers it as a choice). */
function LiveEngines() {
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const [settings, setSettings] = useState<EngineSettings>();
  const [models, setModels] = useState<ModelView[]>([]);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<EnginesStatus>();
  const reload = useCallback(() => {
    if (!client) return;
    void client.engineSettings().then(setSettings, (e: Error) => setError(e.message));
    void client.engineStatus().then(setStatus, () => undefined);
  }, [client]);
  useEffect(reload, [reload]);
  // The status is read again every 30 s, so a server that went down shows before anyone presses a button.
  useEffect(() => {
    if (!client) return undefined;
    const timer = setInterval(() => void client.engineStatus().then(setStatus, () => undefined), 30_000);
    return () => clearInterval(timer);
  }, [client]);
  if (!client) return null;
  const choose = (choice: Choice): void => {
    setError(undefined);
    setSaved(undefined);
    setSaving(true);
    void client.setEngineSettings(choice).then((s) => {
      setSettings(s);
      void client.engineStatus().then(setStatus, () => undefined);
      const what = choice.onEngineFailure !== undefined && !choice.servers
        ? (s.onEngineFailure === 'fail' ? 'a failing engine fails the note or recording' : 'a failing engine hands the work to the embedded one, marked')
        : choice.noteEngine !== undefined || choice.servers?.notes !== undefined ? `notes are written by ${nameOf(s.noteEngine, models)}` : `dictation and recordings use ${nameOf(s.asrEngine, models)}`;
      setSaved(`Saved: from the next one, ${what}.`);
    }, (e: Error) => setError(e.message)).finally(() => setSaving(false));
  };
  const modelActions = (m: ModelView) => {
    const current = m.task === 'speech' ? settings?.asrEngine : settings?.noteEngine;
    if (current === m.id) return <span className="badge signed">In use for {m.task === 'speech' ? 'dictation' : 'notes'}</span>;
    return (
      <button type="button" disabled={saving} onClick={() => choose(m.task === 'speech' ? { asrEngine: m.id } : { noteEngine: m.id })}>
        {m.task === 'speech' ? 'Use for dictation and recordings' : 'Use for notes'}
      </button>
    );
  };
  return (
    <>
      <AccountEngines settings={settings} models={models} choose={choose} saving={saving} saved={saved} error={error} />
      <EngineStatusList status={status} models={models} />
      <ModelsPanel extra={modelActions} onChange={reload} onModels={setModels} />
    </>
  );
}

/**
 * Engine settings: the account's engines and the device's models change a running server (above);
 * servers and model files outside Clindoc are configured when it starts (environment variables read
 * by main/config.ts), so for those this panel writes the lines to set.
 */
export function EnginesPanel() {
  const [text, setText] = useState<'embedded' | 'llama' | 'openai'>('embedded');
  const [modelPath, setModelPath] = useState('');
  const [llmUrl, setLlmUrl] = useState('');
  const [llmModel, setLlmModel] = useState('');
  const [asr, setAsr] = useState('pocketsphinx');
  const [asrDir, setAsrDir] = useState('');
  const [asrUrl, setAsrUrl] = useState('');
  const lines = [
    ...(text === 'llama' && modelPath ? [`CLINDOC_LLM_MODEL_PATH=${modelPath}`] : []),
    ...(text === 'openai' && llmUrl ? [`CLINDOC_LLM_BASE_URL=${llmUrl}`, `CLINDOC_LLM_MODEL=${llmModel}`] : []),
    `CLINDOC_ASR_ENGINE=${asr}`,
    ...(asr.startsWith('onnx') && asrDir ? [`CLINDOC_ASR_MODEL_DIR=${asrDir}`] : []),
    ...(asr === 'openai-compatible' && asrUrl ? [`CLINDOC_ASR_BASE_URL=${asrUrl}`] : []),
  ];
  return (
    <section aria-labelledby="engines-title">
      <h3 id="engines-title">Engines</h3>
      <LiveEngines />
      <h4>Device-wide servers and model files outside Clindoc</h4>
      <p className="hint">An account&apos;s own server is set above and used at once. A server for every account of this device, or a model file Clindoc did not install, is configured when Clindoc starts: set these environment variables (or put them in the service&apos;s environment) and restart.</p>
      <div className="grid">
        <label>
          Note writer
          <select value={text} onChange={(e) => setText(e.target.value as typeof text)}>
            <option value="embedded">Embedded (no model needed)</option>
            <option value="llama">Local GGUF model (llama.cpp)</option>
            <option value="openai">OpenAI-compatible server</option>
          </select>
        </label>
        {text === 'llama' && <label>GGUF model file<input value={modelPath} onChange={(e) => setModelPath(e.target.value)} placeholder="/models/model.gguf" /></label>}
        {text === 'openai' && (
          <>
            <label>Server URL<input type="url" value={llmUrl} onChange={(e) => setLlmUrl(e.target.value)} placeholder="http://127.0.0.1:8000/v1" /></label>
            <label>Model name<input value={llmModel} onChange={(e) => setLlmModel(e.target.value)} /></label>
          </>
        )}
        <label>
          Speech engine
          <select value={asr} onChange={(e) => setAsr(e.target.value)}>
            <option value="pocketsphinx">Embedded (pocketsphinx)</option>
            <option value="onnx-ctc">ONNX CTC model folder</option>
            <option value="onnx-whisper">ONNX Whisper model folder</option>
            <option value="openai-compatible">OpenAI-compatible server</option>
          </select>
        </label>
        {asr.startsWith('onnx') && <label>ONNX model folder<input value={asrDir} onChange={(e) => setAsrDir(e.target.value)} placeholder="/models/asr" /></label>}
        {asr === 'openai-compatible' && <label>Speech server URL<input type="url" value={asrUrl} onChange={(e) => setAsrUrl(e.target.value)} /></label>}
      </div>
      <CopyField label="Environment for these engines" value={lines.join(' ')} />
    </section>
  );
}
