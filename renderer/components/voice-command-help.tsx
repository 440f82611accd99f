import { VOICE_COMMANDS } from '../../shared/dictation/voice-commands.js';

/** The spoken commands, listed on the Dictation page (closed until asked for). */
export function VoiceCommandHelp({ formatting }: { formatting: boolean }) {
  return (
    <details className="voice-help">
      <summary>Voice commands</summary>
      <p className="hint">
        Say a command on its own, after a short pause, so it is not taken for dictation. Commands work with dictation formatting
        on{formatting ? '' : ' (it is off now)'}. When you pause without saying a mark, a full stop is added for you.
      </p>
      <table>
        <thead><tr><th scope="col">Say</th><th scope="col">What it does</th></tr></thead>
        <tbody>
          {VOICE_COMMANDS.map((c) => <tr key={c.say}><td>{c.say}</td><td>{c.does}</td></tr>)}
          <tr><td>comma, period, question mark, colon</td><td>Writes the mark (anywhere in a sentence).</td></tr>
        </tbody>
      </table>
    </details>
  );
}
