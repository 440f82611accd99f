import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { NoteTemplate } from '../../shared/note-template.js';
import { MarkdownView } from '../components/markdown-view.js';
import { EmptyState, ErrorMessage, StatusMessage } from '../components/messages.js';
import { SectionEditor } from '../components/section-editor.js';
import { useConnection, useNotes, useStores } from '../state/stores.js';
import { addLibrarySection, addSection, blankTemplate, idFromTitle, SECTION_LIBRARY, type SectionPath } from '../state/template-edit.js';
import { createTemplatePreview, SAMPLE_TRANSCRIPT } from '../state/template-preview.js';
import { validateTemplate } from '../state/template-validate.js';
import './templates-page.css';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { Page } from '../components/page.js';

const PREVIEW_STATUS: Record<string, string> = {
  idle: '',
  waiting: 'The preview follows your changes…',
  writing: 'Writing the preview…',
  done: 'Preview up to date.',
  failed: '',
};

/**
 * The template editor for physicians: common sections added with one click, plain-language
 * fields (the technical ones under "More options"), sections moved by dragging or with the
 * keyboard, and a live preview of a note written from a sample conversation with the template
 * as it is being edited. Validated as the local API validates.
 */
export function TemplatesPage() {
  const { notes } = useStores();
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const templates = useNotes((s) => s.templates);
  const [draft, setDraft] = useState<NoteTemplate>();
  const [storedId, setStoredId] = useState<string>();
  const [idEdited, setIdEdited] = useState(false);
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [dragFrom, setDragFrom] = useState<SectionPath | null>(null);
  // The preview reads the open visit's own conversation when it has one: a template is judged on
  // the physician's encounters, not only on a made-up one.
  const visitTranscript = useNotes((s) => s.transcript);
  const [sample, setSample] = useState(() => (visitTranscript.trim() ? visitTranscript : SAMPLE_TRANSCRIPT));
  const source = sample === SAMPLE_TRANSCRIPT ? 'sample' : sample === visitTranscript ? 'visit' : 'edited';
  const problems = useMemo(() => (draft ? validateTemplate(draft) : []), [draft]);
  const reload = useCallback(() => notes.getState().loadTemplates(), [notes]);
  const preview = useMemo(() => createTemplatePreview({ client: () => client }), [client]);
  const previewStatus = useStore(preview, (s) => s.status);
  const previewMarkdown = useStore(preview, (s) => s.markdown);
  const previewError = useStore(preview, (s) => s.error);
  useEffect(() => {
    if (client) void reload();
  }, [client, reload]);
  useEffect(() => {
    if (draft && problems.length === 0 && sample.trim()) preview.getState().request(draft, sample);
  }, [draft, problems, sample, preview]);
  useEffect(() => () => preview.getState().cancel(), [preview]);
  if (!client) return <section className="page"><h2>Templates</h2><ErrorMessage>Connect to the local API in Settings first.</ErrorMessage></section>;

  const open = (t: NoteTemplate | undefined, stored?: string): void => {
    setDraft(t);
    setStoredId(stored);
    setIdEdited(Boolean(stored));
    setMessage(undefined);
  };
  const save = async (): Promise<void> => {
    if (!draft || problems.length) return;
    setError(undefined);
    try {
      if (storedId) await client.replaceTemplate(storedId, draft);
      else await client.createTemplate(draft);
      setStoredId(draft.id);
      setIdEdited(true);
      setMessage(`Saved template “${draft.title}”.`);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const drag = { from: dragFrom, setFrom: setDragFrom };
  return (
    <Page id="templates" title="Note templates">
      <div className="templates-layout">
        <div>
          <div className="toolbar">
            <button type="button" className="primary" onClick={() => open(blankTemplate())}>New template</button>
          </div>
          {templates.length === 0 ? <EmptyState title="No templates yet.">A template fixes the sections of a note and how each is written.</EmptyState> : (
            <ul className="plain-list" aria-label="Saved templates">
              {templates.map((t) => (
                <li key={t.id}>
                  <button type="button" className="link" onClick={() => open(structuredClone(t), t.id)}>{t.title}</button>{' '}
                  <ConfirmDelete what={`template ${t.title}`} onConfirm={() => void client.deleteTemplate(t.id).then(() => { if (storedId === t.id) setDraft(undefined); return reload(); }, (e: Error) => setError(e.message))} />
                </li>
              ))}
            </ul>
          )}
        </div>
        {draft ? (
          <form className="template-editor" onSubmit={(e) => { e.preventDefault(); void save(); }} aria-label="Template editor">
            <label>Title<input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value, ...(idEdited ? {} : { id: idFromTitle(e.target.value) }) })} /></label>
            <label>
              Instructions for the whole note
              <textarea rows={2} value={draft.global_prompt ?? ''} onChange={(e) => {
                const { global_prompt: _g, ...rest } = draft;
                setDraft(e.target.value ? { ...rest, global_prompt: e.target.value } : rest);
              }} />
            </label>
            <details className="advanced">
              <summary>More options</summary>
              <label>Template id (for integrations)<input value={draft.id} disabled={Boolean(storedId)} onChange={(e) => { setIdEdited(true); setDraft({ ...draft, id: e.target.value }); }} /></label>
            </details>
            {draft.sections.map((s, i) => <SectionEditor key={i} template={draft} section={s} path={[i]} depth={s.type === 'heading' ? 1 : 0} drag={drag} onChange={setDraft} />)}
            <div className="section-library" role="group" aria-labelledby="library-title">
              <p id="library-title" className="hint">Add a common section:</p>
              <div className="toolbar">
                {SECTION_LIBRARY.map((item) => {
                  const words = item.short ? `${item.title} (${item.short})` : item.title;
                  return <button key={item.key} type="button" aria-label={`Add ${words}`} onClick={() => setDraft(addLibrarySection(draft, item.key))}>{words}</button>;
                })}
              </div>
              <p className="hint">Or build your own:</p>
              <div className="toolbar">
                <button type="button" onClick={() => setDraft(addSection(draft, [], 'heading'))}>Add heading</button>
                <button type="button" onClick={() => setDraft(addSection(draft, [], 'text'))}>Add paragraph</button>
                <button type="button" onClick={() => setDraft(addSection(draft, [], 'list'))}>Add list</button>
              </div>
            </div>
            {problems.length > 0 && <ErrorMessage>Not valid yet: {problems.join('; ')}</ErrorMessage>}
            {message && <StatusMessage>{message}</StatusMessage>}
            {error && <ErrorMessage>{error}</ErrorMessage>}
            <div className="toolbar">
              <button type="submit" className="primary" disabled={problems.length > 0}>Save template</button>
            </div>
          </form>
        ) : <EmptyState title="Choose a template to edit, or make a new one." />}
        {draft && (
          <aside className="template-preview" aria-labelledby="preview-title">
            <h3 id="preview-title">Preview</h3>
            <p className="hint" aria-live="polite" data-testid="preview-status">
              {problems.length > 0 ? 'The preview waits until the template is valid.' : PREVIEW_STATUS[previewStatus]}
            </p>
            {previewStatus === 'failed' && previewError && <ErrorMessage>{previewError}</ErrorMessage>}
            {previewMarkdown
              ? <MarkdownView markdown={previewMarkdown} label="Template preview" />
              : <EmptyState title="The preview appears here.">A note written with this template from {source === 'visit' ? 'the open visit\'s transcript' : 'a sample conversation'}.</EmptyState>}
            <details>
              <summary data-testid="preview-source">
                {source === 'visit' ? 'Written from the open visit\'s transcript' : source === 'sample' ? 'Written from a sample conversation' : 'Written from the conversation below'}
              </summary>
              <div className="toolbar">
                {visitTranscript.trim() && source !== 'visit' && <button type="button" onClick={() => setSample(visitTranscript)}>Use the open visit&apos;s transcript</button>}
                {source !== 'sample' && <button type="button" onClick={() => setSample(SAMPLE_TRANSCRIPT)}>Use the sample conversation</button>}
              </div>
              <label htmlFor="preview-sample" className="sr-only">Conversation for the preview</label>
              <textarea id="preview-sample" rows={10} value={sample} onChange={(e) => setSample(e.target.value)} />
            </details>
          </aside>
        )}
      </div>
    </Page>
  );
}
