import { useState } from 'react';
import { localTime } from '../../shared/export/local-time.js';
import { MarkdownView } from './markdown-view.js';
import { useNotes, usePrefs, useStores } from '../state/stores.js';

// The same local time with its zone as the exported documents say (shared/export/local-time.ts).
const when = (ms: number): string => localTime(ms);

/**
 * Draft, sign, amend: the signing form while the note is a draft; once signed, the signed badge,
 * the addenda and the form that adds one (a signed note itself is read-only).
 */
export function SignPanel() {
  const { notes, prefs } = useStores();
  const signature = useNotes((s) => s.signature);
  const addenda = useNotes((s) => s.addenda);
  const signing = useNotes((s) => s.signing);
  const signerName = usePrefs((s) => s.signerName);
  const [name, setName] = useState(signerName);
  const [addendum, setAddendum] = useState('');
  const busy = signing !== 'idle';
  const remember = (): void => prefs.getState().update({ signerName: name.trim() });

  if (signature.status === 'draft') {
    return (
      <form
        className="sign card"
        aria-label="Sign note"
        onSubmit={(e) => {
          e.preventDefault();
          remember();
          void notes.getState().sign(name);
        }}
      >
        <p className="hint"><span className="badge draft">Draft</span> Not signed: exports say “preliminary”. Once signed the note is read-only; later changes are addenda.</p>
        <label htmlFor="signer-name">Sign as</label>
        <input id="signer-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" maxLength={200} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={busy || !name.trim()}>{signing === 'signing' || signing === 'saving' ? 'Signing…' : 'Sign note'}</button>
        </div>
      </form>
    );
  }
  return (
    <section className="sign card" aria-labelledby="signed-title">
      <p id="signed-title" role="status">
        <span className="badge signed">{signature.status === 'amended' ? 'Signed, amended' : 'Signed'}</span>{' '}
        by {signature.signedBy} on {signature.signedAt !== undefined ? when(signature.signedAt) : ''}. The note is read-only.
      </p>
      {addenda.map((a) => (
        <div key={a.id} className="addendum">
          <h4>Addendum, {when(a.createdAt)}, {a.author}</h4>
          <MarkdownView markdown={a.text} label={`Addendum by ${a.author}`} />
        </div>
      ))}
      <form
        aria-label="Add an addendum"
        onSubmit={(e) => {
          e.preventDefault();
          remember();
          void notes.getState().addAddendum(addendum, name).then(() => {
            if (notes.getState().error === undefined) setAddendum('');
          });
        }}
      >
        <label htmlFor="addendum-text">Addendum</label>
        <textarea id="addendum-text" rows={4} value={addendum} onChange={(e) => setAddendum(e.target.value)} />
        <label htmlFor="addendum-author">Signed by</label>
        <input id="addendum-author" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" maxLength={200} />
        <div className="toolbar">
          <button type="submit" disabled={busy || !addendum.trim() || !name.trim()}>{signing === 'amending' ? 'Adding…' : 'Add addendum'}</button>
        </div>
      </form>
    </section>
  );
}
