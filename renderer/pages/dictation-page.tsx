import { useEffect, useRef, useState } from 'react';
import { LiveEditor, type LiveEditorHandle } from '../components/live-editor.js';
import { ErrorMessage } from '../components/messages.js';
import { VoiceCommandHelp } from '../components/voice-command-help.js';
import { RecogniserLine } from '../components/recogniser-line.js';
import { docText } from '../state/dictation-doc.js';
import { useConnection, useDictation, useFields, useStores, useVoice } from '../state/stores.js';
import { LanguageOptions } from '../components/language-options.js';
import { useFocusOnArrival } from '../components/focus-on-arrival.js';
import { Page } from '../components/page.js';

const STATUS_TEXT: Record<string, string> = {
  idle: 'Not listening',
  starting: 'Starting the microphone…',
  listening: 'Listening',
  reconnecting: 'Connection lost; reconnecting. Keep talking: your words are kept.',
  stopping: 'Finishing the last words…',
};

/** Live dictation: microphone, the dictated text (editable while dictating), macro expansion, voice commands. */
export function DictationPage({ onUseAsTranscript }: { onUseAsTranscript(): void }) {
  const { dictation, prefs } = useStores();
  const ready = useConnection((s) => s.status === 'ready');
  // While the API is down the app's banner says so; "connect in Settings" would send the physician the wrong way.
  const offline = useConnection((s) => s.status === 'offline');
  const { status, insertion, errors, level, microphones, deviceId, formatting, language, lastLatencyMs: latency } =
    useFields(dictation, 'status', 'insertion', 'errors', 'level', 'microphones', 'deviceId', 'formatting', 'language', 'lastLatencyMs');
  const text = useDictation((s) => docText(s.doc));
  const macroCount = useDictation((s) => s.macros.length);
  // An enrollment sentence being read has the microphone (Learn my voice, on the recogniser line).
  const enrolling = useVoice((s) => s.recording !== undefined);
  const [copied, setCopied] = useState(false);
  // "Clear" throws away what was dictated: it asks first.
  const [confirmClear, setConfirmClear] = useState(false);
  const active = status !== 'idle';
  const editor = useRef<LiveEditorHandle>(null);

  // After Stop the result has the focus, ready to read or correct.
  useFocusOnArrival(status, editor, (before, now) => before === 'stopping' && now === 'idle');

  useEffect(() => {
    void dictation.getState().refreshMicrophones();
    if (ready) void dictation.getState().loadMacros();
  }, [dictation, ready]);

  return (
    <Page id="dictation" title="Dictation">
      <div className="toolbar">
        <button
          type="button"
          className={active ? 'primary danger' : 'primary'}
          onClick={() => void dictation.getState().toggle()}
          disabled={!ready || status === 'stopping' || status === 'starting' || (enrolling && !active)}
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
          New words go
          <select value={insertion} onChange={(e) => {
            const mode = e.target.value === 'cursor' ? 'cursor' : 'end';
            dictation.getState().setInsertion(mode);
            prefs.getState().update({ insertion: mode });
          }}>
            <option value="end">At the end</option>
            <option value="cursor">At the cursor</option>
          </select>
        </label>
        <label>
          Spoken language
          <select value={language} disabled={active} onChange={(e) => dictation.getState().setLanguage(e.target.value)}>
            <LanguageOptions />
          </select>
        </label>
      </div>
      <p className={`listen-status ${status}`} role="status" aria-live="polite">
        {STATUS_TEXT[status]}
        {macroCount > 0 ? ` · ${macroCount} macro${macroCount === 1 ? '' : 's'} active` : ' · no macros yet (add them under Macros)'}
      </p>
      <RecogniserLine />
      {!ready && !offline && <ErrorMessage>Connect to the local API in Settings to dictate.</ErrorMessage>}
      {errors.map((e) => (
        <ErrorMessage key={e.id} onDismiss={() => dictation.getState().dismissError(e.id)}>{e.message}</ErrorMessage>
      ))}
      <LiveEditor ref={editor} />
      <VoiceCommandHelp formatting={formatting} />
      <div className="toolbar">
        <button
          type="button"
          disabled={!text}
          onClick={() => void navigator.clipboard?.writeText(text).then(() => { setCopied(true); setTimeout(() => setCopied(false), 2000); })}
        >
          {copied ? 'Copied' : 'Copy text'}
        </button>
        <button type="button" disabled={!text || active} onClick={onUseAsTranscript}>Use as note transcript</button>
        {confirmClear ? (
          <span className="confirm" role="alertdialog" aria-labelledby="confirm-clear">
            <span id="confirm-clear">Clear all dictated text of this visit?</span>{' '}
            <button type="button" className="danger" autoFocus onClick={() => { dictation.getState().clear(); setConfirmClear(false); }}>Clear text</button>
            <button type="button" onClick={() => setConfirmClear(false)}>Keep it</button>
          </span>
        ) : (
          <button type="button" disabled={!text || active} onClick={() => setConfirmClear(true)}>Clear</button>
        )}
        {latency !== undefined && <span className="hint" data-testid="final-latency" data-ms={Math.round(latency)}>Last final text {Math.round(latency)} ms after speech</span>}
      </div>
    </Page>
  );
}
