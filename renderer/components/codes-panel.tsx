import { useStore } from 'zustand';
import { codeKey, decisionOf, type CodeSuggestion } from '../state/codes-store.js';
import { MarkdownView } from './markdown-view.js';
import { useCodes, useNotes, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/**
 * The note drawn as formatted text with one suggestion's evidence marked in place. The offsets
 * count code points of the text that was analysed (the note's markdown), and the marks are placed
 * by code point before the markdown is read, so they land on the same words in the formatted note
 * and nothing moves when evidence is shown or hidden.
 */
export function EvidenceNote({ text, suggestion }: { text: string; suggestion: CodeSuggestion }) {
  return <MarkdownView markdown={text} marks={suggestion.evidence} label={evidenceLabel(suggestion)} testId="evidence-note" />;
}

export const evidenceLabel = (suggestion: CodeSuggestion): string => `Note with the evidence for ${suggestion.code}`;

/** The suggestion whose evidence the note view should mark now, when it still refers to the note shown. */
export function useActiveEvidence(): { text: string; suggestion: CodeSuggestion } | undefined {
  const markdown = useNotes((s) => s.markdown);
  const active = useCodes((s) => s.hover ?? s.active);
  const text = useCodes((s) => s.analysedText);
  const suggestion = useCodes((s) => s.suggestions.find((c) => codeKey(c) === (s.hover ?? s.active)));
  if (!active || !suggestion || text === undefined || text !== markdown) return undefined;
  return { text, suggestion };
}

function Suggestion({ c, decision, stale }: { c: CodeSuggestion; decision: 'accepted' | 'rejected' | undefined; stale: boolean }) {
  const { codes } = useStores();
  const active = useCodes((s) => s.active === codeKey(c));
  const shown = useCodes((s) => (s.hover ?? s.active) === codeKey(c));
  const name = `${c.code} ${c.display}`;
  return (
    <li
      className={`code-suggestion${decision ? ` ${decision}` : ''}${shown ? ' active' : ''}`}
      data-code={c.code}
      onMouseEnter={stale ? undefined : () => codes.getState().setHover(codeKey(c))}
      onMouseLeave={() => codes.getState().setHover(undefined)}
    >
      <div className="code-head">
        <strong className="code">{c.code}</strong> <span className="display">{c.display}</span>
      </div>
      <div className="hint">
        {c.system} · confidence {percent(c.confidence)}{c.edition ? ` · ${c.edition}` : ''}{c.role && c.role !== 'current' ? ` · ${c.role}` : ''}
        {decision ? <span className="decision"> · {decision === 'accepted' ? 'Accepted' : 'Rejected'}</span> : null}
      </div>
      {c.evidence.length > 0 && (
        <div className="hint">Evidence: {c.evidence.map((e) => `“${e.text}”`).join(', ')}</div>
      )}
      {c.rule && <div className="hint" data-testid="code-rule">Why this code: {c.rule.replace(/^[^:]+:\s*/, '')}</div>}
      {c.reasoning && (
        <details>
          <summary>Why this level</summary>
          <p>
            {c.reasoning.patient} patient; {c.reasoning.basis === 'time' ? `total time ${c.reasoning.minutes ?? '?'} minutes` : `medical decision making ${c.reasoning.mdm}`}
            {' '}(problems {c.reasoning.problems}, data {c.reasoning.data}, risk {c.reasoning.risk}).
          </p>
          {c.reasoning.findings.length > 0 && <ul>{c.reasoning.findings.map((f, i) => <li key={i}>{f}</li>)}</ul>}
        </details>
      )}
      <div className="toolbar">
        <button type="button" aria-pressed={active} disabled={stale || c.evidence.length === 0} aria-label={`Show evidence for ${name}`}
          onClick={() => codes.getState().setActive(active ? undefined : codeKey(c))}>
          Show evidence
        </button>
        <button type="button" aria-pressed={decision === 'accepted'} aria-label={`Accept ${name}`}
          onClick={() => void (decision === 'accepted' ? codes.getState().undecide(c) : codes.getState().accept(c))}>
          Accept
        </button>
        <button type="button" aria-pressed={decision === 'rejected'} aria-label={`Reject ${name}`}
          onClick={() => void (decision === 'rejected' ? codes.getState().undecide(c) : codes.getState().reject(c))}>
          Reject
        </button>
      </div>
    </li>
  );
}

/**
 * Codes panel of the note view: suggests ICD-10-CM codes and the office E/M level for the note on
 * screen, marks each suggestion's evidence in the note while it is hovered or shown (Show evidence,
 * a toggle button, so the keyboard reaches it too), and
 * records the physician's accept or reject. Accepted codes are saved with the visit and listed
 * even after a reload, when the suggestions themselves are gone.
 */
export function CodesPanel() {
  const { codes, visits } = useStores();
  const markdown = useNotes((s) => s.markdown);
  const s = useCodes((x) => x);
  const accepted = useStore(visits, (v) => v.codes);
  const rejectedCodes = useStore(visits, (v) => v.rejectedCodes);
  const saveError = useStore(visits, (v) => (v.save === 'error' || v.save === 'conflict' ? v.saveError : undefined));
  const stale = s.analysedText !== undefined && s.analysedText !== markdown;
  return (
    <section className="codes" aria-labelledby="codes-title">
      <h3 id="codes-title">Codes</h3>
      <div className="toolbar">
        <button type="button" disabled={!markdown.trim() || s.status === 'analysing'} onClick={() => void codes.getState().suggest(markdown)}>
          {s.status === 'done' ? 'Suggest codes again' : 'Suggest codes'}
        </button>
        {s.edition && <span className="hint">ICD-10-CM {s.edition}</span>}
      </div>
      {s.status === 'analysing' && <StatusMessage>Reading the note for codes…</StatusMessage>}
      {s.error && <ErrorMessage onDismiss={() => codes.setState({ error: undefined })}>{s.error}</ErrorMessage>}
      {saveError && <ErrorMessage>{saveError}</ErrorMessage>}
      {stale && <p className="hint">The note changed since these codes were suggested: suggest again to see the evidence in the note.</p>}
      {s.status === 'done' && (
        <>
          <p className="hint" aria-live="polite">
            {s.suggestions.length === 0 ? 'No codable diagnosis found.' : `${s.suggestions.length} suggestion${s.suggestions.length === 1 ? '' : 's'}.`}
            {s.setAside > 0 ? ` ${s.setAside} negated, ruled-out or uncertain finding${s.setAside === 1 ? '' : 's'} not coded.` : ''}
          </p>
          <ul className="code-suggestions" aria-label="Suggested codes">
            {s.suggestions.map((c) => <Suggestion key={codeKey(c)} c={c} decision={decisionOf({ codes: accepted, rejectedCodes }, c)} stale={stale} />)}
          </ul>
        </>
      )}
      <h4 id="accepted-codes-title">Accepted codes</h4>
      {accepted.length === 0 ? (
        <p className="hint">None yet.</p>
      ) : (
        <ul className="accepted-codes" aria-labelledby="accepted-codes-title">
          {accepted.map((a) => (
            <li key={codeKey(a)}>
              <strong>{a.code}</strong> {a.display}
              <button type="button" className="link" aria-label={`Remove ${a.code} from the accepted codes`}
                onClick={() => void visits.getState().setCodeDecisions(accepted.filter((x) => codeKey(x) !== codeKey(a)), rejectedCodes)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
