import { useEffect, useId } from 'react';
import type { AdaptationState } from '../../shared/api/voice-adaptation.js';
import { useConnection, useDictation, useFields, useStores } from '../state/stores.js';
import { localTime } from '../../shared/export/local-time.js';
import { ConfirmDelete } from './confirm-delete.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import './voice-enrollment.css';

/** Seconds a sentence takes with its button presses: 20 sentences are the issue's ~2 minutes. */
const SECONDS_PER_SENTENCE = 6;
const pct = (share: number): string => `${Math.round(share * 100)}%`;

/** "12 of 20 read, about 1 minute to go": what is done and what is left, in time a physician can plan. */
export function progressWords(a: AdaptationState): string {
  const total = a.sentences.length;
  const read = a.sentences.filter((s) => s.recorded).length;
  if (read >= total) return `All ${total} read`;
  const seconds = (total - read) * SECONDS_PER_SENTENCE;
  const left = seconds < 30 ? 'less than a minute' : `about ${Math.max(1, Math.round(seconds / 60))} minute${Math.round(seconds / 60) > 1 ? 's' : ''}`;
  return `${read} of ${total} read, ${left} to go`;
}

/** The measured effect in plain words, and what it means for the switch; undefined before a run measured one. */
export function resultWords(a: AdaptationState): { measured: string; verdict: string; helped: boolean } | undefined {
  const m = a.measured;
  if (!m) return undefined;
  const helped = m.werAfter < m.werBefore;
  const sentences = `${m.heldOutSentences} held-out sentence${m.heldOutSentences === 1 ? '' : 's'}`;
  return {
    helped,
    measured: `Misheard words on your ${sentences} (read by you, not used for learning): ${pct(m.werBefore)} before, ${pct(m.werAfter)} after.`,
    verdict: helped
      ? 'The adapted model hears you better; the switch below turns it on or off.'
      : 'It did not help on your sentences, so it stays off. Reading the sentences again, slowly and in a quiet room, may help.',
  };
}

/**
 * "Learn my voice" (issue 27 point 9): the enrollment sentences one at a time with Record, Stop and
 * Re-record, the progress, "Adapt to my voice" and its measured result, the switch that uses the
 * adapted model, consent to learn from corrected dictation, and deleting it all. Shown in Settings
 * and from the Dictation page's recogniser line.
 */
export function VoiceEnrollment() {
  const { voice } = useStores();
  const ready = useConnection((s) => s.status === 'ready');
  const dictating = useDictation((s) => s.status !== 'idle');
  const { adaptation: a, current, recording, level, busy, said, error } = useFields(voice, 'adaptation', 'current', 'recording', 'level', 'busy', 'said', 'error');
  const id = useId();
  useEffect(() => {
    if (ready) void voice.getState().load();
  }, [ready, voice]);
  if (!ready) return null;
  const v = voice.getState();
  const banners = (
    <>
      {said && <StatusMessage>{said}</StatusMessage>}
      {error && <ErrorMessage onDismiss={v.dismissError}>{error}</ErrorMessage>}
    </>
  );
  if (!a) return <div className="voice-enrollment">{banners}{!error && <StatusMessage>Reading your voice enrollment…</StatusMessage>}</div>;

  const sentence = a.sentences[current];
  const read = a.sentences.filter((s) => s.recorded).length;
  const adapting = a.status === 'adapting';
  const result = resultWords(a);
  const hasModel = a.status === 'ready' || Boolean(a.adaptedAt);
  const hasData = a.status !== 'not_enrolled' || a.useCorrectedDictation || a.enabled;
  const mine = recording && sentence && recording.sentenceId === sentence.id;
  return (
    <div className="voice-enrollment" data-testid="voice-enrollment">
      <p>
        Read about {a.sentences.length} short sentences aloud (about 2 minutes). Clindoc adapts the embedded recogniser to your voice, then measures on a
        few of your sentences it did not learn from whether it hears you better. Your readings stay in your account&apos;s encrypted data.
      </p>
      <p className="voice-progress" id={`${id}-progress`} data-testid="voice-progress">{progressWords(a)}</p>
      <progress max={a.sentences.length} value={read} aria-labelledby={`${id}-progress`} />
      {sentence && (
        <div className="voice-card" role="group" aria-labelledby={`${id}-which`}>
          <p className="hint" id={`${id}-which`}>
            Sentence {current + 1} of {a.sentences.length}
            {sentence.recorded ? ` · read${sentence.durationSeconds ? ` (${sentence.durationSeconds.toFixed(1)} s)` : ''}` : ' · not read yet'}
          </p>
          <p className="voice-sentence" lang="en" data-testid="voice-sentence" data-sentence-id={sentence.id}>{sentence.text}</p>
          <div className="toolbar">
            {/*
              One button that is Record, Stop and Re-record in turn, so the focus stays on it through a reading
              (Space, Space, Space… reads every sentence). While a reading is saved it is only marked unavailable:
              a disabled button would drop the keyboard focus to the page.
            */}
            <button
              type="button" className={mine ? 'primary danger' : 'primary'}
              disabled={adapting || dictating || (Boolean(recording) && !mine)} aria-disabled={busy && !mine ? true : undefined}
              onClick={() => { if (mine) void v.stop(); else if (!busy) void v.record(); }}
            >
              {mine ? 'Stop' : sentence.recorded ? 'Re-record' : 'Record'}
            </button>
            <button type="button" disabled={Boolean(recording) || current === 0} onClick={() => v.show(current - 1)}>Previous sentence</button>
            <button type="button" disabled={Boolean(recording) || current >= a.sentences.length - 1} onClick={() => v.show(current + 1)}>Next sentence</button>
            <label className="meter">
              Level
              <meter min={0} max={1} low={0.2} high={0.9} optimum={0.6} value={level} />
            </label>
            {/* Announced once when a reading starts; the running seconds beside it are not a live region (they change many times a second). */}
            <span role="status">{mine ? (recording.live ? 'Recording: read the sentence now.' : 'Starting the microphone…') : ''}</span>
            {mine && recording.live && <span data-testid="voice-recording" data-seconds={recording.seconds.toFixed(1)}>{recording.seconds.toFixed(1)} s. Press Stop when you have read the sentence.</span>}
          </div>
          {dictating && <p className="hint">Dictation is using the microphone; stop it to record.</p>}
        </div>
      )}
      <div className="toolbar">
        <button type="button" className="primary" disabled={busy || adapting || Boolean(recording) || read < a.minimumRecordings} onClick={() => void v.adapt()}>
          Adapt to my voice
        </button>
        {read < a.minimumRecordings && <span className="hint">Read at least {a.minimumRecordings} sentences first ({read} so far).</span>}
      </div>
      {adapting && <StatusMessage>Adapting to your voice… This takes a few seconds to a minute; you may leave this page.</StatusMessage>}
      {a.status === 'failed' && <ErrorMessage>The last adaptation failed: {a.error?.message ?? 'no reason given'}</ErrorMessage>}
      {result && !adapting && (
        <div className={`message ${result.helped ? 'status' : 'warning'} voice-result`} data-testid="voice-result">
          <p>{result.measured}</p>
          <p>{result.verdict}</p>
          {a.adaptedAt && <p className="hint">Adapted {localTime(Date.parse(a.adaptedAt))}{a.recordingsUsed ? ` from ${a.recordingsUsed} readings` : ''}.</p>}
        </div>
      )}
      <label className="check">
        <input type="checkbox" checked={a.enabled} disabled={busy || !hasModel || adapting} onChange={(e) => void v.choose({ enabled: e.target.checked })} />
        Use my adapted voice model for dictation and recordings
        {!hasModel && <span className="hint">(once Clindoc has adapted to your voice)</span>}
      </label>
      <label className="check">
        <input type="checkbox" checked={a.useCorrectedDictation} disabled={busy} aria-describedby={`${id}-consent`} onChange={(e) => void v.choose({ useCorrectedDictation: e.target.checked })} />
        Also learn from my corrected dictation
      </label>
      <p className="hint" id={`${id}-consent`}>
        When on, your recordings attached to visits, with each visit&apos;s transcript as you corrected it, also teach the recogniser your voice
        the next time it adapts (live dictation keeps no audio, so it is not used); they stay in your account&apos;s encrypted data. Off, only
        the sentences above are used.
      </p>
      {hasData && (
        <p>
          <ConfirmDelete what="my voice data" label="Delete my voice data" onConfirm={() => void v.deleteAll()} />
          <span className="hint"> Removes your readings, any corrected dictation kept for learning, and the adapted model.</span>
        </p>
      )}
      {banners}
    </div>
  );
}
