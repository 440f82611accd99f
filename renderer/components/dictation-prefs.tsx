import { usePrefs, useStores } from '../state/stores.js';

/** Settings > Dictation: where new words go, and the browser's processing of the microphone. */
export function DictationPrefs() {
  const { prefs, dictation } = useStores();
  const insertion = usePrefs((s) => s.insertion);
  const micProcessing = usePrefs((s) => s.micProcessing);
  return (
    <section aria-labelledby="dictation-prefs-title">
      <h3 id="dictation-prefs-title">Dictation</h3>
      <div className="grid">
        <label>
          New dictated words go
          <select value={insertion} onChange={(e) => {
            const mode = e.target.value === 'cursor' ? 'cursor' : 'end';
            prefs.getState().update({ insertion: mode });
            dictation.getState().setInsertion(mode);
          }}>
            <option value="end">At the end of the text</option>
            <option value="cursor">Where I put the cursor</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={micProcessing} onChange={(e) => {
            prefs.getState().update({ micProcessing: e.target.checked });
            dictation.getState().setMicProcessing(e.target.checked);
          }} aria-describedby="mic-processing-hint" />
          Echo cancellation, noise suppression and automatic gain
        </label>
      </div>
      <p id="mic-processing-hint" className="hint">
        Off by default: these call features clip and colour dictated speech. Turn them on only for a loudspeaker setup or a very noisy
        room. Takes effect the next time dictation starts.
      </p>
    </section>
  );
}
