import { createStore, type StoreApi } from 'zustand/vanilla';
import type { NoteTemplate } from '../../shared/note-template.js';
import type { ApiClient } from '../api/client.js';

/** The sample encounter a template preview is written from (editable in the editor). */
export const SAMPLE_TRANSCRIPT = `Doctor: What brings you in today?
Patient: I have had a sore throat and a fever for three days, and it hurts to swallow.
Doctor: Any cough or trouble breathing?
Patient: A mild dry cough, no trouble breathing. I take lisinopril 10 mg once a day for blood pressure. I am allergic to penicillin, I get a rash.
Doctor: Do you smoke? Patient: No, never.
Doctor: Temperature is 38.4, blood pressure 128 over 82, pulse 96. The throat is red with swollen tonsils, no exudate. Lungs are clear.
Doctor: This looks like viral pharyngitis. Take paracetamol 1 g up to four times a day, drink plenty of fluids, and come back if you are not better in a week or if it gets harder to swallow.`;

export type PreviewStatus = 'idle' | 'waiting' | 'writing' | 'done' | 'failed';

export interface TemplatePreviewState {
  status: PreviewStatus;
  /** The last preview written, kept on screen while the next one is being written. */
  markdown: string;
  error?: string;
  /** Asks for a preview of `template`; written after the editing pauses (debounced). */
  request(template: NoteTemplate, transcript: string): void;
  /** Stops waiting and forgets a preview in progress (the editor closed). */
  cancel(): void;
}

export interface TemplatePreviewDeps {
  client(): ApiClient | undefined;
  /** Quiet time after the last change before a preview is written; default 900 ms. */
  debounceMs?: number;
  pollMs?: number;
  /** Gives up after this long; default 60 s. */
  timeoutMs?: number;
}

/**
 * A live preview of a template being edited: after the editing pauses, the local API writes a
 * note from a sample transcript with the edited template (`POST /v1/notes` with
 * `noteType.noteTemplate`, polled until done), then the preview note is deleted again, so
 * previews never fill the physician's notes. A newer request supersedes an older one.
 */
export function createTemplatePreview(deps: TemplatePreviewDeps): StoreApi<TemplatePreviewState> {
  const debounceMs = deps.debounceMs ?? 900;
  const pollMs = deps.pollMs ?? 250;
  const timeoutMs = deps.timeoutMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  const write = async (mine: number, template: NoteTemplate, transcript: string): Promise<void> => {
    const client = deps.client();
    if (!client) return store.setState({ status: 'failed', error: 'Connect to the local API to see a preview.' });
    store.setState({ status: 'writing', error: undefined });
    let noteId: string | undefined;
    try {
      ({ noteId } = await client.createNote({ transcript, noteType: { type: 'note_template', noteTemplate: template } }));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const note = await client.getNote(noteId);
        if (mine !== generation) return;
        if (note.status === 'STATUS_DONE') return store.setState({ status: 'done', markdown: note.payload?.markdown ?? '' });
        if (note.status === 'STATUS_FAILED') return store.setState({ status: 'failed', error: note.error?.message ?? 'The preview could not be written.' });
        if (Date.now() > deadline) return store.setState({ status: 'failed', error: 'The preview is taking too long.' });
        await new Promise((r) => setTimeout(r, pollMs));
      }
    } catch (err) {
      if (mine === generation) store.setState({ status: 'failed', error: (err as Error).message });
    } finally {
      if (noteId) await client.deleteNote(noteId).catch(() => undefined);
    }
  };

  const store = createStore<TemplatePreviewState>()((set) => ({
    status: 'idle',
    markdown: '',
    request(template, transcript) {
      clearTimeout(timer);
      const mine = ++generation;
      set({ status: 'waiting' });
      timer = setTimeout(() => void write(mine, template, transcript), debounceMs);
    },
    cancel() {
      clearTimeout(timer);
      generation++;
      set({ status: 'idle' });
    },
  }));
  return store;
}
