import { useCallback, useEffect, useState } from 'react';
import type { EngineMeasurement, EngineTaskStatus, ModelView } from '../../shared/api/models.js';
import { useConnection, useStores, useVoice } from '../state/stores.js';
import { ErrorMessage } from './messages.js';
import { VoiceEnrollment } from './voice-enrollment.js';

/** MB for people, one decimal below 10 MB (as the Models panel shows them). */
const mb = (bytes: number): string => `${(bytes / 1e6).toLocaleString(undefined, { maximumFractionDigits: bytes < 1e7 ? 1 : 0 })} MB`;
/** Set once the physician closed the offer: it opens by itself only on first run. */
const SEEN = 'clindoc.recogniserOfferSeen';
const seen = (): boolean => { try { return globalThis.localStorage?.getItem(SEEN) === '1'; } catch { return true; } };

/** The recogniser as a physician names it. */
function recogniserName(t: EngineTaskStatus, models: ModelView[]): string {
  if (t.kind === 'embedded' || t.engine === 'pocketsphinx') return 'Embedded recogniser (PocketSphinx, no download)';
  if (t.kind === 'server') return `Transcription server${t.model ? ` (${t.model})` : ''}`;
  return models.find((m) => m.id === t.model || m.id === t.engine)?.title ?? t.model ?? t.engine;
}

/** The real-speech figure closest to live dictation (the engine status lists the current model's first), as /v1/engines warns from it. */
export function dictationFigure(quality: EngineMeasurement[]): EngineMeasurement | undefined {
  const real = quality.filter((m) => m.metric === 'WER' && m.set.startsWith('real'));
  return real.find((m) => m.mode === 'streaming') ?? real.find((m) => m.mode === 'batch') ?? quality.find((m) => m.metric === 'WER');
}

/**
 * One line on the Dictation page (issue 27): which recogniser writes the words and how accurate it
 * measured (from GET /v1/engines, with where and when), and from there the better model in one
 * step: the catalog's speech model with its size and Install, an installed one not in use with
 * "Use it", or, while the catalog lists none, import from a folder (offline clinics; operator only).
 */
export function RecogniserLine() {
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const [task, setTask] = useState<EngineTaskStatus>();
  const [models, setModels] = useState<ModelView[]>([]);
  const [open, setOpen] = useState<boolean>();
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<string>();
  const [learning, setLearning] = useState(false);
  const { voice } = useStores();
  // The account's adapted model, when on, answers for the embedded recogniser: the line says so with what it measured.
  const adapted = useVoice((s) => (s.adaptation?.enabled ? s.adaptation : undefined));
  const embedded = task !== undefined && (task.kind === 'embedded' || task.engine === 'pocketsphinx');
  useEffect(() => {
    if (client && embedded) void voice.getState().load();
  }, [client, embedded, voice]);

  const refresh = useCallback(() => {
    if (!client) return;
    void client.engineStatus().then((s) => setTask(s.tasks.find((t) => t.task === 'dictation')), () => setTask(undefined));
    void client.listModels().then((l) => setModels(l.items), () => setModels([]));
  }, [client]);
  useEffect(refresh, [refresh]);
  // While a speech model downloads, look again each second, so Install turns into "Use it" by itself.
  const downloading = models.some((m) => m.task === 'speech' && !m.installed && (m.pull?.status === 'queued' || m.pull?.status === 'running'));
  useEffect(() => {
    if (!downloading) return;
    const timer = setTimeout(refresh, 1000);
    return () => clearTimeout(timer);
  }, [downloading, models, refresh]);

  if (!client || !task) return null;
  // First run on the embedded recogniser: the offer is open until closed once.
  const shown = open ?? (embedded && !seen());
  const toggle = (): void => {
    if (shown) try { globalThis.localStorage?.setItem(SEEN, '1'); } catch { /* private mode: it opens again next time */ }
    setOpen(!shown);
  };
  const figure = dictationFigure(task.quality);
  const speech = models.filter((m) => m.task === 'speech');
  const inUse = (m: ModelView): boolean => m.id === task.engine || m.id === task.model;
  const toInstall = speech.filter((m) => !m.installed && m.origin === 'catalog');
  const idle = speech.filter((m) => m.installed && !inUse(m));
  const act = (work: () => Promise<unknown>, said: string): void => {
    setBusy(true);
    setError(undefined);
    // Kept open to say what happened, also once the recogniser is no longer the embedded one.
    setOpen(true);
    void work().then(() => { setDone(said); refresh(); }, (e: Error) => setError(e.message)).finally(() => setBusy(false));
  };

  return (
    <div className="recogniser" data-testid="recogniser-line">
      <p className="hint recogniser-line">
        <strong>Recogniser:</strong> {recogniserName(task, models)} ·{' '}
        {figure ? (
          <span data-testid="recogniser-accuracy">
            {figure.value}% of words wrong {figure.mode === 'streaming' ? 'live' : 'on recordings'} ({figure.metric} on {figure.set.split(':')[0]}, {figure.script}, measured {figure.date})
          </span>
        ) : <span data-testid="recogniser-accuracy">accuracy not measured on this computer</span>}
        {embedded && adapted && (
          <span data-testid="recogniser-adapted">
            {' · '}adapted to your voice{adapted.measured ? ` (misheard ${Math.round(adapted.measured.werBefore * 100)}% before, ${Math.round(adapted.measured.werAfter * 100)}% after, on your own held-out sentences)` : ''}
          </span>
        )}
        {' '}
        <button type="button" className="link" aria-expanded={shown} aria-controls="recogniser-offer" onClick={toggle}>
          {shown ? 'Hide the offer' : embedded ? 'Get a better speech model' : 'Speech models'}
        </button>
        {/* Only the embedded recogniser learns a voice (issue 27 point 9). */}
        {embedded && (
          <>
            {' · '}
            <button type="button" className="link" aria-expanded={learning} aria-controls="voice-learning" onClick={() => setLearning(!learning)}>
              {learning ? 'Hide Learn my voice' : 'Learn my voice'}
            </button>
          </>
        )}
      </p>
      {embedded && learning && (
        <section id="voice-learning" className="card" aria-labelledby="voice-learning-title">
          <h3 id="voice-learning-title">Learn my voice</h3>
          <VoiceEnrollment />
        </section>
      )}
      {shown && (
        <div id="recogniser-offer" className="message warning" data-testid="recogniser-offer">
          {task.warnings.slice(0, 1).map((w) => <p key={w}>{w}</p>)}
          {toInstall.map((m) => (
            <p key={m.id}>
              Recommended: <strong>{m.title}</strong>{m.approxBytes ? `, about ${mb(m.approxBytes)}` : ''}{m.catalog ? ` (for ${m.catalog.recommendedFor})` : ''}.{' '}
              {m.pull?.status === 'queued' || m.pull?.status === 'running'
                ? <span role="status">Downloading… {mb(m.pull.receivedBytes)}{m.pull.totalBytes ? ` of ${mb(m.pull.totalBytes)}` : ''}</span>
                : <button type="button" className="primary" disabled={busy} onClick={() => act(() => client.pullModel(m.id), `Downloading ${m.title}; it can be chosen once installed.`)}>Install {m.title}</button>}
              {m.pull?.status === 'failed' && <span className="hint bad"> The last download failed: {m.pull.error}</span>}
            </p>
          ))}
          {idle.map((m) => (
            <p key={m.id}>
              Installed, not in use: <strong>{m.title}</strong>.{' '}
              <button type="button" className="primary" disabled={busy} onClick={() => act(() => client.setEngineSettings({ asrEngine: m.id }), `Dictation now uses ${m.title}.`)}>Use it for dictation</button>
            </p>
          ))}
          {!speech.some((m) => m.origin === 'catalog') && (
            <p data-testid="no-catalog-speech">
              The model catalog lists no speech model to download: the publisher of the Whisper models states no SHA-256 for some of their files,
              and Clindoc downloads nothing it cannot check. Import a copied Whisper folder instead (for example Xenova/whisper-base, as
              <code>clindoc models import FOLDER --id whisper-base</code> does); its hashes are recorded at import.
            </p>
          )}
          <form onSubmit={(e) => { e.preventDefault(); act(() => client.importModel(path.trim()).then(() => setPath('')), 'Imported. Choose “Use it for dictation” above.'); }}>
            <label htmlFor="recogniser-import">Import a speech model from a folder on this computer (USB stick, share; the operator account only)</label>{' '}
            <input id="recogniser-import" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/media/usb/whisper-base" />{' '}
            <button type="submit" disabled={busy || !path.trim()}>Import</button>
          </form>
          {done && <p role="status">{done}</p>}
          {error && <ErrorMessage onDismiss={() => setError(undefined)}>{error}</ErrorMessage>}
        </div>
      )}
    </div>
  );
}
