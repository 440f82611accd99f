import type { EvidenceSpan } from './offsets.js';

/**
 * Ports of coding analysis. The ICD-10-CM table comes in through `CodeTable` (implemented in
 * `main/engines/coding/` on the CMS files); the service itself reads no files.
 */

/** One ICD-10-CM suggestion as the API shows it. */
export interface IcdSuggestion {
  system: 'ICD-10-CM';
  code: string;
  display: string;
  confidence: number;
  evidence: EvidenceSpan[];
  /** The code-set edition the code comes from. */
  edition: string;
  /** current: the patient's condition; status: long-term drug or dialysis; history / family: Z codes. */
  role: 'current' | 'history' | 'family' | 'status';
  /** 1 = main reason for the visit. */
  rank: number;
  /** Codes of this answer linked to this one by the table's notes (use additional code, code also, code first). */
  related: string[];
  /** Why a convention chose this code (combinations, history), when one did. */
  why: string[];
  /** The rule or convention that chose this code, in one line ("E11.65: diabetes with hyperglycemia: ..."). */
  rule: string;
}

/** One line of the CMS order file: a code (with the dot, `E11.9`) or a heading. */
export interface CodeEntry {
  code: string;
  /** True for codes valid for submission; headings are never suggested. */
  billable: boolean;
  /** The long description. */
  title: string;
}

/** Instructional notes of the tabular list attached to one code or category. */
export interface CodeNotes {
  /** Inclusion terms: other names for this code. */
  inclusion?: string[];
  /** "Includes" notes of a category. */
  includes?: string[];
  excludes1?: string[];
  excludes2?: string[];
  codeFirst?: string[];
  useAdditionalCode?: string[];
  codeAlso?: string[];
  /** 7th characters defined here (character -> meaning, e.g. `A` -> `initial encounter`). */
  seventh?: Record<string, string>;
}

/** The code set one edition: look-ups by code, the tree, and the notes. */
export interface CodeTable {
  readonly system: 'ICD-10-CM';
  /** Edition label, e.g. `FY2021`; every suggestion names it. */
  readonly edition: string;
  /** A code with or without the dot (`E119`, `E11.9`). */
  get(code: string): CodeEntry | undefined;
  parent(code: string): CodeEntry | undefined;
  children(code: string): CodeEntry[];
  /** Billable codes at or below `code`, in table order. */
  billableUnder(code: string): CodeEntry[];
  /** Notes attached to this code itself (not its ancestors). */
  notes(code: string): CodeNotes | undefined;
  /** Every entry in table order. */
  entries(): readonly CodeEntry[];
  readonly counts: { codes: number; billable: number };
}

/** A licensed CPT table supplied by the operator (`CLINDOC_CPT_TABLE`): code -> descriptor. */
export interface CptTable {
  readonly source: string;
  descriptor(code: string): string | undefined;
  readonly size: number;
}

/** Proposes extra codes with a language model; every proposal is checked before it is shown. */
export interface CodeProposer {
  propose(text: string, embedded: readonly IcdSuggestion[]): Promise<IcdSuggestion[]>;
}

/** Inserts the dot after the category (`E119` -> `E11.9`); codes of three characters have none. */
export function dotted(code: string): string {
  const bare = code.replace('.', '').toUpperCase();
  return bare.length > 3 ? `${bare.slice(0, 3)}.${bare.slice(3)}` : bare;
}
