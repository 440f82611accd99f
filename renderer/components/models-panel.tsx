import { useCallback, useEffect, useState } from 'react';
import type { ModelPullView, ModelView } from '../../shared/api/models.js';
import type { ApiClient } from '../api/client.js';
import { useConnection } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import './models-panel.css';

/** Bytes for people: MB with one decimal below 10 MB (tiny models show as 0.1 MB, not 0). */
const mb = (bytes: number | null | undefined): string =>
  (bytes ? `${(bytes / 1e6).toLocaleString(undefined, { maximumFractionDigits: bytes < 1e7 ? 1 : 0 })} MB` : '');
const active = (p: ModelPullView | undefined): boolean => p?.status === 'queued' || p?.status === 'running';

/** The download of one model: a progress bar while it runs, why it stopped otherwise. */
function PullLine({ model }: { model: ModelView }) {
  const pull = model.pull;
  if (!pull || model.installed) return null;
  if (active(pull)) {
    const total = pull.totalBytes ?? model.approxBytes ?? 0;
    return (
      <div className="model-progress">
        <progress aria-label={`Downloading ${model.title}`} value={pull.receivedBytes} max={Math.max(total, pull.receivedBytes, 1)} />
        <span>{pull.status === 'queued' ? 'Waiting to start…' : `${mb(pull.receivedBytes) || '0 MB'} of ${mb(total) || 'unknown'}`}</span>
      </div>
    );
  }
  if (pull.status === 'failed') return <ErrorMessage>Download failed: {pull.error}</ErrorMessage>;
  if (pull.status === 'cancelled') return <p className="hint">Download cancelled; Retry resumes where it stopped.</p>;
  return null;
}

/** One catalog or installed model with what can be done with it. */
function ModelRow({ model, client, refresh, onError, extra }: {
  model: ModelView; client: ApiClient; refresh: () => void; onError: (message: string) => void; extra?: (model: ModelView) => React.ReactNode;
}) {
  const act = (work: () => Promise<unknown>): void => void work().then(refresh, (e: Error) => onError(e.message));
  const about = model.catalog;
  const pulling = active(model.pull);
  return (
    <li className="model" data-model={model.id}>
      <div className="model-head">
        <strong>{model.title}</strong>{' '}
        <span className="badge">{model.task === 'speech' ? 'Speech' : 'Notes'}</span>{' '}
        {model.installed && <span className="badge signed">Installed</span>}
      </div>
      {about && (
        <p className="hint">
          {about.description} For {about.recommendedFor}. {model.approxBytes ? `About ${mb(model.approxBytes)}. ` : ''}
          Speed: {about.speed.text} ({about.speed.source}). Licence: <a href={about.licence.url} target="_blank" rel="noreferrer">{about.licence.name}</a>.{' '}
          Checked against the publisher's SHA-256; a file with another is refused.
        </p>
      )}
      {model.installed && model.files && (
        <p className="hint">{mb(model.bytes)} on disk; {model.files.some((f) => f.hashSource === 'pinned') ? 'hashes recorded at import' : 'publisher hashes match'}.</p>
      )}
      <PullLine model={model} />
      <div className="actions">
        {!model.installed && !pulling && model.origin === 'catalog' && (
          <button type="button" className="primary" onClick={() => act(() => client.pullModel(model.id))}>
            {model.pull && model.pull.status !== 'done' ? `Retry ${model.title}` : `Install ${model.title}`}
          </button>
        )}
        {pulling && <button type="button" onClick={() => act(() => client.cancelModelPull(model.id))}>Cancel download</button>}
        {model.installed && extra?.(model)}
        {model.installed && <button type="button" onClick={() => act(() => client.removeModel(model.id))}>Remove</button>}
      </div>
    </li>
  );
}

/**
 * Models for this device: the catalog's recommended speech and note models, installed with one
 * click (progress, cancel, retry), and models copied in from a USB stick or share. `extra` adds
 * actions to an installed model (choosing it as an engine).
 */
export function ModelsPanel({ extra, onChange, onModels }: {
  extra?: (model: ModelView) => React.ReactNode;
  /** Called after each refresh (installed models change what can be chosen). */
  onChange?: () => void;
  onModels?: (models: ModelView[]) => void;
}) {
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const clinic = useConnection((s) => s.clinic);
  const [models, setModels] = useState<ModelView[]>();
  const [error, setError] = useState<string>();
  const [importPath, setImportPath] = useState('');
  const refresh = useCallback(() => {
    if (!client) return;
    void client.listModels().then((list) => {
      setModels(list.items);
      onModels?.(list.items);
      onChange?.();
    }, (e: Error) => setError(e.message));
  }, [client, onChange, onModels]);
  useEffect(refresh, [refresh]);
  const downloading = models?.some((m) => active(m.pull)) ?? false;
  useEffect(() => {
    if (!downloading) return undefined;
    const timer = setInterval(refresh, 700);
    return () => clearInterval(timer);
  }, [downloading, refresh]);
  if (!client) return null;
  return (
    <section aria-labelledby="models-title">
      <h3 id="models-title">Models</h3>
      <p className="hint">
        {clinic ? `Speech and note models run on the clinic server at ${clinic.baseUrl}, for everyone using it. A server on a shared database has its models installed by its administrator on each of its machines, and refuses installs from here.`
          : 'Speech and note models run on this computer once installed; nothing is sent anywhere.'} Downloads continue in the background.
      </p>
      {error && <ErrorMessage onDismiss={() => setError(undefined)}>{error}</ErrorMessage>}
      {!models && <StatusMessage>Loading models…</StatusMessage>}
      <ul className="models">
        {models?.map((m) => <ModelRow key={m.id} model={m} client={client} refresh={refresh} onError={setError} {...(extra ? { extra } : {})} />)}
      </ul>
      <form
        aria-label="Install a model from this computer"
        onSubmit={(e) => {
          e.preventDefault();
          setError(undefined);
          void client.importModel(importPath.trim()).then(() => { setImportPath(''); refresh(); }, (err: Error) => setError(err.message));
        }}
      >
        <label htmlFor="model-import-path">Install from a file or folder on this computer (USB stick, share)</label>
        <input id="model-import-path" value={importPath} onChange={(e) => setImportPath(e.target.value)} placeholder="/media/usb/whisper-base" />
        <button type="submit" disabled={!importPath.trim()}>Install from this path</button>
      </form>
    </section>
  );
}
