import { useCallback, useEffect, useMemo, useState } from 'react';
import type { NoteTemplate } from '../../shared/note-template.js';
import { EmptyState, ErrorMessage, StatusMessage } from '../components/messages.js';
import { SectionEditor } from '../components/section-editor.js';
import { useConnection, useNotes, useStores } from '../state/stores.js';
import { addSection, blankTemplate } from '../state/template-edit.js';
import { validateTemplate } from '../state/template-validate.js';

/** NoteTemplate editor: headings, text and list sections with their properties, validated as the API validates. */
export function TemplatesPage() {
  const { notes } = useStores();
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const templates = useNotes((s) => s.templates);
  const [draft, setDraft] = useState<NoteTemplate>();
  const [storedId, setStoredId] = useState<string>();
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<string>();
  const problems = useMemo(() => (draft ? validateTemplate(draft) : []), [draft]);
  const reload = useCallback(() => notes.getState().loadTemplates(), [notes]);
  useEffect(() => {
    if (client) void reload();
  }, [client, reload]);
  if (!client) return <section className="page"><h2>Templates</h2><ErrorMessage>Connect to the local API in Settings first.</ErrorMessage></section>;

  const save = async (): Promise<void> => {
    if (!draft || problems.length) return;
    setError(undefined);
    try {
      if (storedId) await client.replaceTemplate(storedId, draft);
      else await client.createTemplate(draft);
      setStoredId(draft.id);
      setMessage(`Saved template “${draft.title}”.`);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section className="page" aria-labelledby="templates-title">
      <h2 id="templates-title">Note templates</h2>
      <div className="columns">
        <div>
          <div className="toolbar">
            <button type="button" className="primary" onClick={() => { setDraft(blankTemplate()); setStoredId(undefined); setMessage(undefined); }}>New template</button>
          </div>
          {templates.length === 0 ? <EmptyState title="No templates yet.">A template fixes the sections of a note and how each is written.</EmptyState> : (
            <ul className="plain-list" aria-label="Saved templates">
              {templates.map((t) => (
                <li key={t.id}>
                  <button type="button" className="link" onClick={() => { setDraft(structuredClone(t)); setStoredId(t.id); setMessage(undefined); }}>{t.title}</button>{' '}
                  <button type="button" className="link" aria-label={`Delete template ${t.title}`} onClick={() => void client.deleteTemplate(t.id).then(() => { if (storedId === t.id) setDraft(undefined); return reload(); }, (e: Error) => setError(e.message))}>Delete</button>
                </li>
              ))}
            </ul>
          )}
        </div>
        {draft ? (
          <form className="template-editor" onSubmit={(e) => { e.preventDefault(); void save(); }} aria-label="Template editor">
            <div className="grid">
              <label>Template id<input value={draft.id} disabled={Boolean(storedId)} onChange={(e) => setDraft({ ...draft, id: e.target.value })} /></label>
              <label>Title<input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} /></label>
            </div>
            <label>
              Instructions for the whole note
              <textarea rows={2} value={draft.global_prompt ?? ''} onChange={(e) => {
                const { global_prompt: _g, ...rest } = draft;
                setDraft(e.target.value ? { ...rest, global_prompt: e.target.value } : rest);
              }} />
            </label>
            {draft.sections.map((s, i) => <SectionEditor key={i} template={draft} section={s} path={[i]} depth={s.type === 'heading' ? 1 : 0} onChange={setDraft} />)}
            <div className="toolbar">
              <button type="button" onClick={() => setDraft(addSection(draft, [], 'heading'))}>Add heading</button>
              <button type="button" onClick={() => setDraft(addSection(draft, [], 'text'))}>Add text section</button>
              <button type="button" onClick={() => setDraft(addSection(draft, [], 'list'))}>Add list section</button>
            </div>
            {problems.length > 0 && <ErrorMessage>Not valid yet: {problems.join('; ')}</ErrorMessage>}
            {message && <StatusMessage>{message}</StatusMessage>}
            {error && <ErrorMessage>{error}</ErrorMessage>}
            <div className="toolbar">
              <button type="submit" className="primary" disabled={problems.length > 0}>Save template</button>
            </div>
          </form>
        ) : <EmptyState title="Choose a template to edit, or make a new one." />}
      </div>
    </section>
  );
}
