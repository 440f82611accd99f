import { useNotes, useStores } from '../state/stores.js';

/** A writer's section key as a physician names it. */
const SECTION_NAMES: Record<string, string> = {
  hpi: 'history of present illness', history: 'history', exam: 'examination', results: 'results', assessment: 'assessment', plan: 'plan',
};

/**
 * "Said but not in the note" (issue 24 point 2): what the writer could not place with confidence is
 * listed under the draft, each with where it would go and **Add to note**, which puts it at the end
 * of that section (or under "Said in the visit") and saves the draft. Lines already in the note are
 * not listed; a signed note lists nothing (it takes addenda).
 */
export function SaidNotInNote() {
  const { notes } = useStores();
  const unplaced = useNotes((s) => s.unplaced);
  const markdown = useNotes((s) => s.markdown);
  const draft = useNotes((s) => s.signature.status === 'draft');
  const open = unplaced.filter((u) => !markdown.includes(u.text));
  if (!draft || open.length === 0) return null;
  return (
    <section className="said card" aria-labelledby="said-title">
      <h3 id="said-title">Said but not in the note</h3>
      <p className="hint">The writer could not place these with confidence. Read each against the visit; add what belongs.</p>
      <ul className="plain-list">
        {open.map((u) => (
          <li key={u.text}>
            “{u.text}”{u.section && <span className="hint"> ({SECTION_NAMES[u.section] ?? u.section})</span>}{' '}
            <button type="button" className="link" aria-label={`Add to note: ${u.text}`} onClick={() => void notes.getState().addUnplaced(u.text)}>Add to note</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
