import { useEffect, useState } from 'react';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import { ErrorMessage, EmptyState } from '../components/messages.js';
import { useConnection, useDictation, useStores } from '../state/stores.js';
import { shownTexts, type Segment } from '../state/transcript-pieces.js';

const STATUS_TEXT: Record<string, string> = {
  idle: 'Not listening',
  starting: 'Starting the microphone…',
  listening: 'Listening',
  reconnecting: 'Connection lost; reconnecting. Keep talking: your words are kept.',
  stopping: 'Finishing the last words…',
};

/** Why the local API left a macro phrase as spoken, in the physician's words. */
const SKIPPED: Record<string, string> = {
  negated: 'said in a negation',
  exception: 'followed by an exception',
  trigger_required: 'this macro needs its command, e.g. “insert …”',
};

function SegmentView({ segment }: { segment: Segment }) {
  const { dictation } = useStores();
  const shown = shownTexts(segment.pieces);
  return (
    <span className={segment.pending ? 'segment pending' : 'segment'}>
      {segment.pieces.map((p, i) =>
        p.kind === 'text' ? (
          <span key={p.id}>{shown[i]}</span>
        ) : (
          <span key={p.id} className="macro-wrap">
            <mark
              className={p.undone ? `macro undone${p.skipped ? ' skipped' : ''}` : 'macro'}
              title={p.undone ? `Macro ${p.macroId} not expanded${p.skipped ? `: ${SKIPPED[p.skipped]}` : ''}` : `Expanded macro ${p.macroId} from “${p.original}”`}
              data-macro-id={p.macroId}
              data-skipped={p.skipped}
            >
              {shown[i]}
            </mark>
            <button
              type="button"
              className="link small"
              onClick={() => dictation.getState().toggleExpansion(segment.id, p.id)}
              aria-label={p.skipped && p.undone ? `Expand macro ${p.macroId} anyway (${SKIPPED[p.skipped]})` : p.undone ? `Expand macro ${p.macroId} again` : `Undo expansion of macro ${p.macroId}`}
            >
              {p.undone ? 'Expand' : 'Undo'}
            </button>
          </span>
        ),
      )}{' '}
    </span>
  );
}

/** Live dictation: microphone, partial and final text, macro expansion, editing. */
export function DictationPage({ onUseAsTranscript }: { onUseAsTranscript(): void }) {
  const { dictation } = useStores();
  const ready = useConnection((s) => s.status === 'ready');
  const status = useDictation((s) => s.status);
  const segments = useDictation((s) => s.segments);
  const partial = useDictation((s) => s.partial);
  const errors = useDictation((s) => s.errors);
  const level = useDictation((s) => s.level);
  const microphones = useDictation((s) => s.microphones);
  const deviceId = useDictation((s) => s.deviceId);
  const formatting = useDictation((s) => s.formatting);
  const language = useDictation((s) => s.language);
  const macroCount = useDictation((s) => s.macros.length);
  const latency = useDictation((s) => s.lastLatencyMs);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const active = status !== 'idle';

  useEffect(() => {
    void dictation.getState().refreshMicrophones();
    if (ready) void dictation.getState().loadMacros();
  }, [dictation, ready]);

  const text = segments.length ? dictation.getState().text() : '';
  return (
    <section className="page" aria-labelledby="dictation-title">
      <h2 id="dictation-title">Dictation</h2>
      <div className="toolbar">
        <button
          type="button"
          className={active ? 'primary danger' : 'primary'}
          onClick={() => void dictation.getState().toggle()}
          disabled={!ready || status === 'stopping' || status === 'starting'}
          aria-keyshortcuts="Control+Shift+Space"
        >
          {active ? 'Stop dictation' : 'Start dictation'}
        </button>
        <span className="hint">Ctrl+Shift+Space</span>
        <label>
          Microphone
          <select value={deviceId} onChange={(e) => dictation.getState().selectMicrophone(e.target.value)} disabled={active}>
            <option value="">System default</option>
            {microphones.filter((m) => m.deviceId && m.deviceId !== 'default').map((m) => (
              <option key={m.deviceId} value={m.deviceId}>{m.label}</option>
            ))}
          </select>
        </label>
        <label className="meter">
          Level
          <meter aria-label="Microphone level" min={0} max={1} low={0.2} high={0.9} optimum={0.6} value={level} />
        </label>
        <label className="check">
          <input type="checkbox" checked={formatting} disabled={active} onChange={(e) => dictation.getState().setFormatting(e.target.checked)} />
          Dictation formatting
        </label>
        <label>
          Spoken language
          <select value={language} disabled={active} onChange={(e) => dictation.getState().setLanguage(e.target.value)}>
            {NOTE_LANGUAGES.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
      </div>
      <p className={`listen-status ${status}`} role="status" aria-live="polite">
        {STATUS_TEXT[status]}
        {macroCount > 0 ? ` · ${macroCount} macro${macroCount === 1 ? '' : 's'} active` : ' · no macros yet (add them under Macros)'}
      </p>
      {!ready && <ErrorMessage>Connect to the local API in Settings to dictate.</ErrorMessage>}
      {errors.map((e) => (
        <ErrorMessage key={e.id} onDismiss={() => dictation.getState().dismissError(e.id)}>{e.message}</ErrorMessage>
      ))}
      {editing === undefined ? (
        <div className="transcript" aria-label="Dictated text" role="region">
          <div className="finals" aria-live="polite" data-testid="final-text">
            {segments.map((s) => <SegmentView key={s.id} segment={s} />)}
          </div>
          <p className="partial" aria-label="Partial text" data-testid="partial-text">{partial}</p>
          {segments.length === 0 && !partial && (
            <EmptyState title={active ? 'Listening… start speaking.' : 'Nothing dictated yet.'}>
              {active ? 'Grey text is provisional; it turns black when final.' : 'Press Start dictation (or Ctrl+Shift+Space) and speak.'}
            </EmptyState>
          )}
        </div>
      ) : (
        <div className="transcript editing">
          <label htmlFor="dictation-edit">Edit dictated text</label>
          <textarea id="dictation-edit" rows={12} value={editing} onChange={(e) => setEditing(e.target.value)} />
          <div className="toolbar">
            <button type="button" className="primary" onClick={() => { dictation.getState().replaceText(editing); setEditing(undefined); }}>Save text</button>
            <button type="button" onClick={() => setEditing(undefined)}>Cancel</button>
          </div>
        </div>
      )}
      <div className="toolbar">
        <button type="button" onClick={() => setEditing(text)} disabled={!text || active || editing !== undefined}>Edit text</button>
        <button
          type="button"
          disabled={!text}
          onClick={() => void navigator.clipboard?.writeText(text).then(() => { setCopied(true); setTimeout(() => setCopied(false), 2000); })}
        >
          {copied ? 'Copied' : 'Copy text'}
        </button>
        <button type="button" disabled={!text || active} onClick={onUseAsTranscript}>Use as note transcript</button>
        <button type="button" disabled={!text || active} onClick={() => dictation.getState().clear()}>Clear</button>
        {latency !== undefined && <span className="hint" data-testid="final-latency" data-ms={Math.round(latency)}>Last final text {Math.round(latency)} ms after speech</span>}
      </div>
    </section>
  );
}
