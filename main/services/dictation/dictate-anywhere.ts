/**
 * "Dictate anywhere": a global shortcut starts and stops dictation from any application, the
 * dictation bar shows the words being recognised, and each final is typed at the cursor of the
 * focused application. This file is the whole decision: a pure reducer (state + event -> state
 * + effects) and a small runner that carries the effects out through two ports, the typer
 * (typing-port.ts) and the bar. The Electron glue in `main/app/` only wires them.
 *
 * Rules it holds:
 * - finals are typed one at a time, in the order spoken; one that arrives while another is being
 *   typed waits its turn;
 * - within a session, finals are joined by one space (none before punctuation or after a
 *   newline); the first final of a session is typed as it is, since the text around the cursor
 *   is unknown;
 * - stopping waits for the last finals and types them before the bar hides;
 * - when typing fails, dictation stops and nothing is lost: the failed final and everything after
 *   it stay in the bar to copy, with the reason;
 * - when no adapter works here, the shortcut opens the bar with the reason instead of listening.
 */
import type { BarEvent, BarView } from '../../../shared/dictation-bar-bridge.js';
import type { TextTyper } from './typing-port.js';

export type Phase = 'idle' | 'starting' | 'listening' | 'stopping';

export interface DictateAnywhereState {
  phase: Phase;
  /** The microphone is open (between asking the bar to start and the bar saying it stopped). */
  captureOpen: boolean;
  barVisible: boolean;
  partial: string;
  /** Finals waiting to be typed, already joined; the first is being typed when `typing`. */
  queue: string[];
  typing: boolean;
  /** Last character given to the typer in this session ('' at its start): decides the space before the next final. */
  tail: string;
  /** Typing failed in this session: later finals are kept, not typed. */
  failed: boolean;
  /** Text that could not be typed, kept to copy until the user closes it (across sessions). */
  held: string;
  message?: { kind: 'info' | 'error'; text: string };
}

/** Events: the bar's (shared/dictation-bar-bridge.ts), the shortcut, and the typer's answers. */
export type DictateEvent = BarEvent | { type: 'shortcut' } | { type: 'typed' } | { type: 'typing-failed'; message: string };

export type Effect =
  | { type: 'show-bar' }
  | { type: 'hide-bar' }
  | { type: 'start-capture' }
  | { type: 'stop-capture' }
  | { type: 'type'; text: string }
  | { type: 'copy'; text: string }
  | { type: 'render' };

export interface Step {
  state: DictateAnywhereState;
  effects: Effect[];
}

export const INITIAL_STATE: DictateAnywhereState = { phase: 'idle', captureOpen: false, barVisible: false, partial: '', queue: [], typing: false, tail: '', failed: false, held: '' };

/** The text to type for a final: one space before it unless the session just began, a line ended, or it starts with punctuation. */
export function joinFinal(tail: string, text: string): string {
  if (!tail || /\s$/.test(tail) || /^[\s.,;:!?)\]}%]/.test(text)) return text;
  return ` ${text}`;
}

const render: Effect = { type: 'render' };

/** After the microphone closed and typing drained: back to idle, the bar stays only to show a message or kept text. */
function settle(s: DictateAnywhereState, effects: Effect[]): Step {
  if (s.captureOpen || s.typing || s.queue.length > 0 || s.phase === 'idle') return { state: s, effects: [...effects, render] };
  const barVisible = Boolean(s.message || s.held);
  const state = { ...s, phase: 'idle' as const, partial: '', barVisible };
  return { state, effects: [...effects, ...(barVisible ? [] : [{ type: 'hide-bar' as const }]), render] };
}

/**
 * The reducer. `problem` is why no typer works here (undefined when one does).
 */
export function reduce(s: DictateAnywhereState, event: DictateEvent, problem?: string): Step {
  switch (event.type) {
    case 'shortcut':
    case 'toggle': {
      if (s.phase === 'idle') {
        if (problem) return { state: { ...s, barVisible: true, message: { kind: 'error', text: `Dictation cannot type into other applications: ${problem}.` } }, effects: [{ type: 'show-bar' }, render] };
        // Text kept from an earlier failure stays until the user closes it; the old message goes.
        const state: DictateAnywhereState = { ...INITIAL_STATE, held: s.held, phase: 'starting', captureOpen: true, barVisible: true };
        return { state, effects: [{ type: 'show-bar' }, { type: 'start-capture' }, render] };
      }
      if (s.phase === 'starting' || s.phase === 'listening') return { state: { ...s, phase: 'stopping' }, effects: [{ type: 'stop-capture' }, render] };
      return { state: s, effects: [] };
    }
    case 'capture-started':
      return s.phase === 'starting' ? { state: { ...s, phase: 'listening' }, effects: [render] } : { state: s, effects: [] };
    case 'partial':
      return s.phase === 'idle' ? { state: s, effects: [] } : { state: { ...s, partial: event.text }, effects: [render] };
    case 'final': {
      if (s.phase === 'idle') return { state: s, effects: [] };
      // Spaces around a final go (the join decides them); a newline from a "new line" command stays.
      const text = event.text.replace(/^[ \t\u00a0]+|[ \t\u00a0]+$/g, '');
      if (!text) return { state: { ...s, partial: '' }, effects: [render] };
      const piece = joinFinal(s.tail, text);
      // After a failure nothing more is typed this session: later finals join the kept text.
      if (s.failed) return { state: { ...s, partial: '', held: s.held + piece, tail: piece.slice(-1) }, effects: [render] };
      const state = { ...s, partial: '', queue: [...s.queue, piece], tail: piece.slice(-1), typing: true };
      return { state, effects: s.typing ? [render] : [{ type: 'type', text: piece }, render] };
    }
    case 'typed': {
      const queue = s.queue.slice(1);
      if (queue.length > 0) return { state: { ...s, queue }, effects: [{ type: 'type', text: queue[0]! }] };
      return settle({ ...s, queue, typing: false }, []);
    }
    case 'typing-failed': {
      const failedText = s.queue.join('').replace(/^\s+/, '');
      const held = s.held ? `${s.held}\n${failedText}` : failedText;
      const message = { kind: 'error' as const, text: `Could not type into the application: ${event.message}. The text is kept here to copy.` };
      const stopping = s.phase === 'starting' || s.phase === 'listening';
      const next = { ...s, queue: [], typing: false, failed: true, held, message, phase: stopping ? ('stopping' as const) : s.phase };
      return settle(next, stopping ? [{ type: 'stop-capture' }] : []);
    }
    case 'capture-stopped':
      return settle({ ...s, captureOpen: false, partial: '', phase: s.phase === 'idle' ? 'idle' : 'stopping' }, []);
    case 'capture-failed':
      return settle({ ...s, captureOpen: false, partial: '', phase: s.phase === 'idle' ? 'idle' : 'stopping', message: { kind: 'error', text: event.message } }, []);
    case 'copy-held':
      if (!s.held) return { state: s, effects: [] };
      return { state: { ...s, message: { kind: 'info', text: 'The kept text is on the clipboard: paste it where it belongs.' } }, effects: [{ type: 'copy', text: s.held }, render] };
    case 'dismiss': {
      const state = { ...s, message: undefined, held: '' } as DictateAnywhereState;
      delete state.message;
      if (s.phase !== 'idle') return { state, effects: [render] };
      return { state: { ...state, barVisible: false }, effects: [{ type: 'hide-bar' }, render] };
    }
  }
}

/** What the bar shows for a state. */
export function barView(s: DictateAnywhereState, typerName: string | undefined): BarView {
  return {
    status: s.phase,
    partial: s.partial,
    target: typerName ? `Typing at the cursor (${typerName})` : 'Typing unavailable',
    held: s.held,
    ...(s.message ? { message: s.message } : {}),
  };
}

/** The dictation bar window, as the runner drives it. */
export interface DictationBarPort {
  show(): void;
  hide(): void;
  startCapture(): void;
  stopCapture(): void;
  render(view: BarView): void;
  /** Puts kept text on the system clipboard (the user asked for it). */
  copy(text: string): void;
}

export interface DictateAnywhere {
  dispatch(event: DictateEvent): void;
  state(): DictateAnywhereState;
}

/** The runner: holds the state and carries effects out. `typer` is a TextTyper, or the reason none works here. */
export function createDictateAnywhere(deps: { typer: TextTyper | { problem: string }; bar: DictationBarPort }): DictateAnywhere {
  const typer = 'type' in deps.typer ? deps.typer : undefined;
  const problem = 'problem' in deps.typer ? deps.typer.problem : undefined;
  let state = INITIAL_STATE;
  const dispatch = (event: DictateEvent): void => {
    const step = reduce(state, event, problem);
    state = step.state;
    for (const effect of step.effects) {
      if (effect.type === 'show-bar') deps.bar.show();
      else if (effect.type === 'hide-bar') deps.bar.hide();
      else if (effect.type === 'start-capture') deps.bar.startCapture();
      else if (effect.type === 'stop-capture') deps.bar.stopCapture();
      else if (effect.type === 'render') deps.bar.render(barView(state, typer?.name));
      else if (effect.type === 'copy') deps.bar.copy(effect.text);
      else if (typer) {
        typer.type(effect.text).then(
          () => dispatch({ type: 'typed' }),
          (err: unknown) => dispatch({ type: 'typing-failed', message: err instanceof Error ? err.message : String(err) }),
        );
      }
    }
  };
  return { dispatch, state: () => state };
}
