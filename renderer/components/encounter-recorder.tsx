import { useEffect, useRef, useState } from 'react';
import { useNotes, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { SpeakerRoles } from './speaker-roles.js';

const ENCOUNTER_TEXT: Record<string, string> = {
  uploading: 'Uploading the recording…',
  pending: 'Waiting to transcribe…',
  processing: 'Transcribing and separating speakers…',
  completed: 'Transcribed. The transcript is below; check it before generating.',
};

const clock = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * A whole encounter as audio: recorded here (MediaRecorder, WebM/Opus) or picked from a file,
 * then uploaded for batch transcription with speaker diarization; two speakers come back as
 * Doctor and Patient (guessed), swapped with one click (SpeakerRoles).
 */
export function EncounterRecorder() {
  const { notes } = useStores();
  const status = useNotes((s) => s.encounter);
  const error = useNotes((s) => s.encounterError);
  const [recording, setRecording] = useState(false);
  const [recError, setRecError] = useState<string>();
  const recorder = useRef<MediaRecorder | undefined>(undefined);
  const [startedAt, setStartedAt] = useState<number>();
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    // A visible clock tells the physician the recording is running and how long it is.
    if (startedAt === undefined) return;
    const tick = setInterval(() => setElapsed(Math.floor((Date.now() - startedAt) / 1000)), 250);
    return () => clearInterval(tick);
  }, [startedAt]);
  const busy = status === 'uploading' || status === 'pending' || status === 'processing';

  const start = async (): Promise<void> => {
    setRecError(undefined);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const type = MediaRecorder.isTypeSupported('audio/webm;codecs=opus') ? 'audio/webm;codecs=opus' : '';
      const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      rec.onstop = () => {
        stream.getTracks().forEach((t) => t.stop());
        const blob = new Blob(chunks, { type: 'audio/webm' });
        void notes.getState().transcribeEncounter(blob, 'encounter.webm');
      };
      rec.start(1000);
      recorder.current = rec;
      setElapsed(0);
      setStartedAt(Date.now());
      setRecording(true);
    } catch (err) {
      setRecError(`The microphone could not be opened: ${(err as Error).message}`);
    }
  };
  const stop = (): void => {
    recorder.current?.stop();
    recorder.current = undefined;
    setStartedAt(undefined);
    setRecording(false);
  };

  return (
    <fieldset className="encounter">
      <legend>Encounter recording</legend>
      <div className="toolbar">
        <button type="button" onClick={() => (recording ? stop() : void start())} disabled={busy} className={recording ? 'danger' : ''}>
          {recording ? 'Stop recording and transcribe' : 'Record encounter'}
        </button>
        <label className="file">
          Upload a recording
          <input
            type="file"
            accept="audio/*,.wav,.mp3,.m4a,.webm,.ogg,.flac"
            disabled={busy || recording}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void notes.getState().transcribeEncounter(file, file.name);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {recording && (
        <StatusMessage>
          {/* One span: the message box lays its children out as flex items. */}
          <span>Recording the encounter: <span role="timer" aria-label="Recording time">{clock(elapsed)}</span>. Speakers are separated when it is transcribed.</span>
        </StatusMessage>
      )}
      {ENCOUNTER_TEXT[status] && <StatusMessage>{ENCOUNTER_TEXT[status]}</StatusMessage>}
      {(error || recError) && <ErrorMessage>{error ?? recError}</ErrorMessage>}
      <SpeakerRoles />
    </fieldset>
  );
}
