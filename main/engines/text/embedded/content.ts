/** The note content the embedded writer fills: sections of lines, each with its weight and place. */
import type { SectionKind } from './sections.js';
import type { Gender } from './rewrite.js';
import type { Fact } from './facts.js';
import type { PlanAct } from './register.js';

/** What a line of the assessment and plan is: the clinician's reasoning or one kind of plan. */
export type LineAct = PlanAct | 'reasoning';

export interface ContentItem {
  text: string;
  /** Higher is more informative; used when a section must be shortened. */
  weight: number;
  /** Order in the transcript, so shortened sections keep the conversation's order. */
  index: number;
  /** A body-system or topic label ("Respiratory", "Chest x-ray"), as an English key. */
  label?: string;
  /** The problem of the assessment and plan this line belongs to (index into `problems`). */
  problem?: number;
  act?: LineAct;
  /** A structured finding the renderer writes in the note's language. */
  fact?: Fact;
  /** Text taken from the caller (context, previous note), shown as given. */
  caller?: boolean;
}

export type NoteContent = Record<SectionKind, ContentItem[]>;

/** The encounter as the writer read it. */
export interface Encounter {
  content: NoteContent;
  /** Problem names of the assessment and plan, in the order the clinician took them. */
  problems: string[];
  gender: Gender;
  english: boolean;
}

export const KINDS: SectionKind[] = ['chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family', 'vitals', 'exam', 'results', 'assessment', 'plan', 'instructions'];

/** An empty content table. */
export function emptyContent(): NoteContent {
  return Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as NoteContent;
}
