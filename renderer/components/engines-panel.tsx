import { useEffect, useState } from 'react';
import type { EngineSettings } from '../api/types.js';
import { useConnection } from '../state/stores.js';
import { CopyField } from './copy-field.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { ModelsPanel } from './models-panel.js';

const ENGINE_NAMES: Record<string, string> = {
  pocketsphinx: 'Embedded (pocketsphinx)', 'onnx-ctc': 'ONNX CTC model', 'onnx-whisper': 'ONNX Whisper model', 'openai-compatible': 'OpenAI-compatible server',
};

/** Whether the embedded recogniser has its clinical vocabulary, in words a clinic's IT person can act on. */
function ClinicalModelLine({ model }: { model: EngineSettings['clinicalLanguageModel'] }) {
  if (model.loaded) return <p className="hint" data-testid="clinical-model">Clinical language model: loaded{model.path ? ` from ${model.path}` : ''}.</p>;
  const why = model.reason === 'disabled'
    ? 'turned off (CLINDOC_ASR_MEDICAL=0)'
    : `not found${model.path ? ` in ${model.path}` : ''}; reinstall Clindoc or run scripts/build-medical-lm.ts`;
  return <p className="hint" data-testid="clinical-model">Clinical language model: not loaded, {why}. The embedded recogniser uses the general English model, which misses more medical words.</p>;
}

/** The account's default recogniser for recordings: a live setting of the local API. */
function AccountRecogniser() {
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const [settings, setSettings] = useState<EngineSettings>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (client) void client.engineSettings().then(setSettings, (e: Error) => setError(e.message));
  }, [client]);
  if (!client) return null;
  const choose = (value: string): void => {
    setError(undefined);
    setSaved(false);
    void client.setEngineSettings(value || null).then((s) => { setSettings(s); setSaved(true); }, (e: Error) => setError(e.message));
  };
  return (
    <div className="grid">
      <label>
        Recogniser for recordings (this account)
        <select value={settings?.source === 'account' ? settings.asrEngine : ''} disabled={!settings} onChange={(e) => choose(e.target.value)}>
          <option value="">Device default{settings?.source === 'default' ? ` (${ENGINE_NAMES[settings.asrEngine] ?? settings.asrEngine})` : ''}</option>
          {(settings?.available ?? []).map((x) => <option key={x} value={x}>{ENGINE_NAMES[x] ?? x}</option>)}
        </select>
      </label>
      {settings?.clinicalLanguageModel && <ClinicalModelLine model={settings.clinicalLanguageModel} />}
      {saved && <StatusMessage>Saved: recordings use {ENGINE_NAMES[settings?.asrEngine ?? ''] ?? settings?.asrEngine}.</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </div>
  );
}

/**
 * Engine settings. The local API chooses its engines when it starts (environment variables read by
 * main/config.ts), so this panel writes the lines to set and explains where; it does not change a
 * running server.
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
      <AccountRecogniser />
      <ModelsPanel />
      <p className="hint">The other engines are chosen when Clindoc starts. Set these environment variables (or put them in the service&apos;s environment) and restart.</p>
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
