import { useCallback, useEffect, useState } from 'react';
import type { MacroDefinition } from '../api/types.js';
import { EmptyState, ErrorMessage, StatusMessage } from '../components/messages.js';
import { saveFile } from '../save-file.js';
import { importMacros, macroFile, parseMacroFile } from '../state/macro-io.js';
import { useConnection, useDictation, useStores } from '../state/stores.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { Page } from '../components/page.js';

const EMPTY = { id: '', examples: '', expansion: '', commanded: false };

/** The physician's macro library: create, edit, delete, import and export (JSON). */
export function MacrosPage() {
  const { dictation, bridge } = useStores();
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const macros = useDictation((s) => s.macros);
  const [loaded, setLoaded] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [editing, setEditing] = useState<string>();
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<string>();
  const reload = useCallback(async () => {
    await dictation.getState().loadMacros();
    setLoaded(true);
  }, [dictation]);
  useEffect(() => {
    if (client) void reload();
  }, [client, reload]);
  if (!client) return <section className="page"><h2>Macros</h2><ErrorMessage>Connect to the local API in Settings first.</ErrorMessage></section>;

  const save = async (): Promise<void> => {
    setError(undefined);
    setMessage(undefined);
    const macro: MacroDefinition = {
      id: form.id.trim(), examples: form.examples.split('\n').map((s) => s.trim()).filter(Boolean), expansion_text: form.expansion,
      ...(form.commanded ? { trigger: 'insert' as const } : {}),
    };
    if (!macro.id) return setError('Give the macro an id.');
    if (macro.examples.length === 0) return setError('Add at least one spoken form.');
    try {
      if (editing) await client.replaceMacro(editing, macro);
      else await client.createMacro(macro);
      setMessage(`Saved macro ${macro.id}.`);
      setForm(EMPTY);
      setEditing(undefined);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Page id="macros" title="Macros">
      <p className="hint">
        Say a spoken form while dictating and it is replaced by the expansion, marked so you can undo it. A spoken form said in a
        negation (“not a normal exam”) or followed by an exception (“normal exam except for …”) is left as you said it.
      </p>
      <form className="card" onSubmit={(e) => { e.preventDefault(); void save(); }} aria-label={editing ? `Edit macro ${editing}` : 'New macro'}>
        <h3>{editing ? `Edit macro ${editing}` : 'New macro'}</h3>
        <label htmlFor="macro-id">Macro id</label>
        <input id="macro-id" value={form.id} onChange={(e) => setForm({ ...form, id: e.target.value })} disabled={Boolean(editing)} placeholder="normal-exam" />
        <label htmlFor="macro-examples">Spoken forms (one per line)</label>
        <textarea id="macro-examples" rows={3} value={form.examples} onChange={(e) => setForm({ ...form, examples: e.target.value })} placeholder="normal exam" />
        <label htmlFor="macro-expansion">Expansion text</label>
        <textarea id="macro-expansion" rows={4} value={form.expansion} onChange={(e) => setForm({ ...form, expansion: e.target.value })} />
        <label className="check">
          <input type="checkbox" checked={form.commanded} onChange={(e) => setForm({ ...form, commanded: e.target.checked })} />
          Only when I say “insert” first (for phrases also used in ordinary speech)
        </label>
        <div className="toolbar">
          <button type="submit" className="primary">{editing ? 'Save macro' : 'Add macro'}</button>
          {editing && <button type="button" onClick={() => { setEditing(undefined); setForm(EMPTY); }}>Cancel</button>}
        </div>
      </form>
      <div className="toolbar">
        <label className="file">
          Import macros (JSON)
          <input
            type="file"
            accept="application/json,.json"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              // A new import replaces the outcome of the last one, so old news never sits beside a new error.
              setError(undefined);
              setMessage(undefined);
              void file.text().then(async (text) => {
                const { created, replaced } = await importMacros(client, parseMacroFile(text));
                setMessage(`Imported ${created} new and ${replaced} updated macros.`);
                await reload();
              }).catch((err: Error) => setError(`Import failed: ${err.message}`));
            }}
          />
        </label>
        <button type="button" disabled={macros.length === 0} onClick={() => void saveFile(bridge, 'clindoc-macros.json', macroFile(macros), 'application/json')}>Export macros (JSON)</button>
      </div>
      {message && <StatusMessage>{message}</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {!loaded ? <p role="status">Loading macros…</p> : macros.length === 0 ? (
        <EmptyState title="No macros yet.">Add one above, or import a JSON file.</EmptyState>
      ) : (
        <table className="macros">
          <caption className="sr-only">Saved macros</caption>
          <thead><tr><th scope="col">Id</th><th scope="col">Spoken forms</th><th scope="col">Expansion</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {macros.map((m) => (
              <tr key={m.id}>
                <td><code>{m.id}</code></td>
                <td>{m.examples.join(' · ')}{m.trigger === 'insert' && <span className="hint"> (after “insert”)</span>}</td>
                <td className="expansion">{m.expansion_text}</td>
                <td className="actions">
                  <button type="button" className="link" aria-label={`Edit macro ${m.id}`} onClick={() => { setEditing(m.id); setForm({ id: m.id, examples: m.examples.join('\n'), expansion: m.expansion_text, commanded: m.trigger === 'insert' }); }}>Edit</button>
                  <ConfirmDelete what={`macro ${m.id}`} onConfirm={() => void client.deleteMacro(m.id).then(reload, (err: Error) => setError(err.message))} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
