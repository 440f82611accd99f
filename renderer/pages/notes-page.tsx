import { useEffect, useRef } from 'react';
import type { NoteLanguage } from '../../shared/languages.js';
import type { NoteKind } from '../api/types.js';
import { CodesPanel, evidenceLabel, useActiveEvidence } from '../components/codes-panel.js';
import { EncounterRecorder } from '../components/encounter-recorder.js';
import { ExportPanel } from '../components/export-panel.js';
import { MarkdownView } from '../components/markdown-view.js';
import { CarryPanel, NoteVersions } from '../components/note-versions.js';
import { SignPanel } from '../components/sign-panel.js';
import { useFocusOnArrival } from '../components/focus-on-arrival.js';
import { EmptyState, ErrorMessage, StatusMessage } from '../components/messages.js';
import { StyleMaker } from '../components/style-maker.js';
import { UNSURE_NOTICE_ID, UnsureDetail, UnsureFlag } from '../components/unsure-notice.js';
import { mostlyUnsure } from '../../shared/dictation/unsure-share.js';
import { dictationUnsureShare } from '../state/unsure-share.js';
import { locked } from '../state/note-store.js';
import { useConnection, useNotes, useStores } from '../state/stores.js';
import { LanguageOptions } from '../components/language-options.js';
import { NoteSectionsEditor } from '../components/note-sections-editor.js';
import { SaidNotInNote } from '../components/said-not-in-note.js';
import { Page } from '../components/page.js';

const STATUS_TEXT: Record<string, string> = {
  submitting: 'Sending the transcript…',
  STATUS_PENDING: 'Queued: the note will be written shortly…',
  STATUS_PROCESSING: 'Writing the note…',
};

/** From encounter to note: transcript, options, generation with status, the note, editing, export. */
export function NotesPage() {
  const { notes, dictation, visits } = useStores();
  const ready = useConnection((s) => s.status === 'ready');
  const s = useNotes((x) => x);
  const working = s.status === 'submitting' || s.status === 'STATUS_PENDING' || s.status === 'STATUS_PROCESSING';
  // A signed note and its transcript are read-only; "Start a new version" opens them for a new draft.
  const isLocked = locked(s);
  const medCount = s.medicationList.split(',').map((m) => m.trim()).filter(Boolean).length;
  const dictated = dictation.getState().text();
  // While a code suggestion is hovered or shown, the note is drawn with its evidence marked.
  const evidence = useActiveEvidence();

  useEffect(() => {
    if (ready) void notes.getState().loadTemplates();
  }, [notes, ready]);

  // When a note is written the focus goes to it, and screen readers hear that it is ready.
  const noteView = useRef<HTMLElement>(null);
  useFocusOnArrival(s.status, noteView, (before, now) => now === 'STATUS_DONE' && before !== 'idle');

  return (
    <Page id="notes" title="Note" className="notes">
      <div className="columns">
        <form
          className="inputs"
          aria-label="Note inputs"
          onSubmit={(e) => {
            e.preventDefault();
            // The note shown now is saved into the visit before a new one takes its place, so none drops out of the visit.
            void visits.getState().flush().then(() => notes.getState().generate());
          }}
        >
          <EncounterRecorder />
          <label htmlFor="transcript">Transcript</label>
          {isLocked && (
            <p className="hint locked-hint" id="transcript-locked">
              <span className="badge signed">Signed</span> The note and its transcript are read-only. A new version is a new draft; the signed note stays as it is.
            </p>
          )}
          <textarea
            id="transcript"
            rows={10}
            readOnly={isLocked}
            aria-describedby={isLocked ? 'transcript-locked' : undefined}
            value={s.transcript}
            onChange={(e) => s.set({ transcript: e.target.value })}
            placeholder="Paste or type the encounter transcript, record it above, or use your dictation."
          />
          {!isLocked && <UnsureDetail share={s.transcriptUnsureShare} />}
          <div className="toolbar">
            <button type="button" disabled={!dictated || isLocked} onClick={() => s.set({ transcript: dictated, transcriptUnsureShare: dictationUnsureShare(dictation.getState().doc) })}>Use dictated text</button>
          </div>
          <div className="grid">
            <label>
              Note type
              <select value={s.kind} onChange={(e) => s.set({ kind: e.target.value as NoteKind })}>
                <option value="soap">SOAP note</option>
                <option value="note_style">Note style</option>
                <option value="note_template">Note template</option>
              </select>
            </label>
            <label>
              Note language
              <select value={s.language} onChange={(e) => s.set({ language: e.target.value as NoteLanguage })}>
                <LanguageOptions />
              </select>
            </label>
            {s.kind === 'note_template' && (
              <label>
                Template
                <select value={s.templateId} onChange={(e) => s.set({ templateId: e.target.value })}>
                  <option value="">Choose a template</option>
                  {s.templates.map((t) => <option key={t.id} value={t.id}>{t.title}</option>)}
                </select>
              </label>
            )}
          </div>
          {s.kind === 'note_template' && s.templates.length === 0 && <p className="hint">No templates yet: make one under Templates.</p>}
          {s.kind === 'note_style' && (
            <>
              <label htmlFor="style-template">Style instructions</label>
              <textarea id="style-template" rows={5} value={s.styleTemplate} onChange={(e) => s.set({ styleTemplate: e.target.value })}
                placeholder="Describe the sections, or make a style from a sample note below." />
            </>
          )}
          <StyleMaker />
          <fieldset>
            <legend>Patient and encounter</legend>
            <div className="grid">
              <label>
                Patient name
                <input value={s.patientName} onChange={(e) => s.set({ patientName: e.target.value })} autoComplete="off" />
              </label>
              <label>
                Date of birth
                <input type="date" value={s.dateOfBirth} onChange={(e) => s.set({ dateOfBirth: e.target.value })} />
              </label>
              <label>
                Encounter date
                <input type="date" value={s.date} onChange={(e) => s.set({ date: e.target.value })} />
              </label>
            </div>
            <label htmlFor="medications">Medication list (comma separated, up to 50)</label>
            <textarea id="medications" rows={2} value={s.medicationList} onChange={(e) => s.set({ medicationList: e.target.value })} aria-describedby="med-count" />
            <span id="med-count" className={medCount > 50 ? 'hint bad' : 'hint'}>{medCount} of 50 medications</span>
          </fieldset>
          <div className="toolbar generate-bar">
            {!isLocked && <UnsureFlag share={s.transcriptUnsureShare} />}
            {isLocked ? (
              // Own keys: React must not turn this very button into the submit button during its click,
              // or the click would go on to submit the form and write a version at once.
              <button key="start-new" type="button" className="primary" disabled={!ready || working} onClick={() => s.startNewVersion(true)}>Start a new version</button>
            ) : (
              <button key="generate" type="submit" className="primary" disabled={!ready || working} aria-keyshortcuts="Control+Enter"
                aria-describedby={mostlyUnsure(s.transcriptUnsureShare) ? UNSURE_NOTICE_ID : undefined}>
                {s.newVersion ? 'Write the new version' : s.status === 'STATUS_DONE' || s.status === 'STATUS_FAILED' ? 'Regenerate note' : 'Generate note'}
              </button>
            )}
            {s.newVersion && <button type="button" onClick={() => s.startNewVersion(false)}>Keep only the signed note</button>}
            <span className="hint">Ctrl+Enter · ? for all shortcuts</span>
          </div>
        </form>
        <div className="output">
          <div className="status-slot">
            <p className="sr-only" aria-live="polite" data-testid="note-announcement">
              {s.status === 'STATUS_DONE' && s.markdown ? 'The note is ready.' : ''}
            </p>
            {working && <StatusMessage>{STATUS_TEXT[s.status]}</StatusMessage>}
            {s.error && <ErrorMessage onDismiss={() => notes.setState({ error: undefined })}>{s.error}</ErrorMessage>}
          </div>
          {s.markdown ? (
            <>
              {s.signature.status === 'draft' && (
                <div className="toolbar">
                  <button
                    type="button"
                    aria-pressed={s.editing}
                    onClick={() => {
                      if (s.editing) void notes.getState().saveEdits();
                      s.setEditing(!s.editing);
                    }}
                  >
                    {s.editing ? 'Show note' : 'Edit note'}
                  </button>
                  {s.generated !== undefined && s.markdown !== s.generated && (
                    <button type="button" onClick={() => s.setMarkdown(s.generated ?? '')}>Revert to generated</button>
                  )}
                </div>
              )}
              <CarryPanel />
              {/* Signing sits above the note, so it is in sight at 1366x768 however long the note is. */}
              <SignPanel />
              {s.sourceUnsure && (
                <p className="message warning" data-testid="note-source-unsure">
                  <strong>Review:</strong> this note was {s.sourceUnsure}. Read every line against the visit before signing.
                </p>
              )}
              {s.editing ? (
                <NoteSectionsEditor markdown={s.markdown} onChange={s.setMarkdown} />
              ) : (
                // One view whether or not a code's evidence is shown: the marks are drawn inside the
                // formatted note, so hovering a suggestion moves nothing (no raw markdown, no reflow).
                <MarkdownView
                  markdown={s.markdown}
                  label={evidence ? evidenceLabel(evidence.suggestion) : 'Generated note'}
                  ref={noteView}
                  {...(evidence ? { marks: evidence.suggestion.evidence, testId: 'evidence-note' } : {})}
                />
              )}
              <SaidNotInNote />
              <NoteVersions />
              <CodesPanel />
              <ExportPanel />
            </>
          ) : (
            !working && <EmptyState title="No note yet.">Add a transcript, choose the note type and press Generate note.</EmptyState>
          )}
        </div>
      </div>
    </Page>
  );
}
