// @vitest-environment happy-dom
/**
 * Issue 27 point 6 in the app shell: a recording's two speakers come into the Note page's
 * transcript as "Doctor:" / "Patient:" lines (roles guessed from the dialogue, whichever number
 * the diarizer gave them), and "Swap speakers" relabels every line with one click.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App } from '../../renderer/app.js';
import { transcriptFromRecord } from '../../renderer/state/note-store.js';
import type { TranscriptionRecord } from '../../renderer/api/types.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { guessSpeakerRoles, swapRoleLabels } from '../../shared/speaker-roles.js';
import { MemoryStorage } from '../support/memory-storage.js';

afterEach(cleanup);

async function openApp(): Promise<AppStores> {
  const s = new MemoryStorage();
  const app = createAppStores({
    bridge: undefined,
    connectionEnv: { hash: '', session: s, local: s, clearHash: () => undefined },
    local: s,
    fetch: async () => new Response('{}', { status: 503 }),
    dictation: {
      listMicrophones: async () => [],
      startCapture: async () => ({ sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined }),
      createStream: (d) => ({ start: () => d.onState('open'), sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' }),
    },
  });
  await act(async () => {
    render(<StoresProvider stores={app}><App /></StoresProvider>);
  });
  return app;
}

/** A completed two-speaker recording as the API returns it; the patient happens to be speaker 0. */
function record(): TranscriptionRecord {
  const lines: Array<[number, string]> = [
    [0, 'hi doctor i have had a sore throat and a fever for three days'],
    [1, 'what brings you in today how long have you had the fever'],
    [0, 'since monday it hurts when i swallow'],
    [1, 'let me take a look please open wide i am going to order a strep test'],
  ];
  return {
    id: 't1', status: 'completed', language: 'en', duration: 20, text: lines.map(([, t]) => t).join(' '), confidence: 0.8, speakers: 2,
    utterances: lines.map(([speaker, text], i) => ({ speaker, text, start: i * 5, end: i * 5 + 4, confidence: 0.8 })),
    words: [], created_at: '', updated_at: '', completed_at: '', error: null,
  } as unknown as TranscriptionRecord;
}

describe('doctor and patient', () => {
  it('guesses the doctor from the dialogue whichever number the diarizer gave', () => {
    const lines = record().utterances.map((u) => ({ speaker: u.speaker, text: u.text }));
    expect(Object.fromEntries(guessSpeakerRoles(lines))).toEqual({ 0: 'patient', 1: 'doctor' });
    const renumbered = lines.map((l) => ({ ...l, speaker: 1 - l.speaker! }));
    expect(Object.fromEntries(guessSpeakerRoles(renumbered))).toEqual({ 1: 'patient', 0: 'doctor' });
    expect(guessSpeakerRoles(lines.map((l) => ({ ...l, speaker: 0 }))).size).toBe(0);
    expect(swapRoleLabels('Doctor: a\nPatient: b\nDoctor: Patient: c')).toBe('Patient: a\nDoctor: b\nPatient: Patient: c');
  });

  it('labels a recording\'s transcript Doctor / Patient and swaps every line with one click', async () => {
    const app = await openApp();
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    expect(screen.queryByRole('button', { name: 'Swap speakers' })).toBeNull();
    await act(async () => app.notes.getState().set({ transcript: transcriptFromRecord(record()) }));
    const box = screen.getByLabelText('Transcript') as HTMLTextAreaElement;
    const labels = (): string[] => box.value.split('\n').map((l) => l.split(':')[0]!);
    expect(labels()).toEqual(['Patient', 'Doctor', 'Patient', 'Doctor']);
    expect(box.value.split('\n')[1]).toBe('Doctor: what brings you in today how long have you had the fever');
    fireEvent.click(screen.getByRole('button', { name: 'Swap speakers' }));
    expect(labels()).toEqual(['Doctor', 'Patient', 'Doctor', 'Patient']);
    expect(box.value.split('\n')[1]).toBe('Patient: what brings you in today how long have you had the fever');
    fireEvent.click(screen.getByRole('button', { name: 'Swap speakers' }));
    expect(labels()).toEqual(['Patient', 'Doctor', 'Patient', 'Doctor']);
  });

  it('offers no swap for a transcript without two labelled roles', async () => {
    const app = await openApp();
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    const one = { ...record(), utterances: record().utterances.map((u) => ({ ...u, speaker: 0 })) } as TranscriptionRecord;
    await act(async () => app.notes.getState().set({ transcript: transcriptFromRecord(one) }));
    expect((screen.getByLabelText('Transcript') as HTMLTextAreaElement).value).toBe(one.text);
    expect(screen.queryByRole('button', { name: 'Swap speakers' })).toBeNull();
  });
});
