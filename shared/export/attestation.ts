/**
 * What makes an exported note a document someone can rely on: who it is about, when the encounter
 * was, who wrote it, whether it is signed ("Electronically signed by … on …") or still a draft
 * (PRELIMINARY), each addendum with its own signature, and the codes the physician accepted.
 * Markdown, plain text, the clipboard and the PDF all take their text from here, so they agree.
 * Times are the physician's local time with the zone named, never UTC ISO.
 */
import type { AcceptedCode } from './fhir-bundle.js';
import { codesPlainText } from './fhir-bundle.js';
import { markdownToPlainText } from './markdown.js';
import { localTime, signatureLine } from './local-time.js';

export { localTime, signatureLine };

export interface AttestedNote {
  markdown: string;
  patient?: { name?: string; dateOfBirth?: string };
  /** YYYY-MM-DD (or with a time). */
  encounterDate?: string;
  signature: { status: 'draft' | 'signed' | 'amended'; signedBy?: string; signedAt?: number };
  addenda?: readonly { text: string; author: string; createdAt: number }[];
  codes?: readonly AcceptedCode[];
  /** Who writes the draft (the name the physician signs with), shown until it is signed. */
  author?: string;
  /** IANA zone for the times; default the computer's own. Tests pass one. */
  timeZone?: string;
}

export const PRELIMINARY = 'PRELIMINARY: not signed';

/** Patient and encounter in one line, for the top of every PDF page. */
export function identityLine(note: Pick<AttestedNote, 'patient' | 'encounterDate'>): string {
  const parts = [
    `Patient: ${note.patient?.name?.trim() || 'name not given'}`,
    `Date of birth: ${note.patient?.dateOfBirth || 'not given'}`,
    `Encounter: ${note.encounterDate || 'date not given'}`,
  ];
  return parts.join('  ·  ');
}

const statusText = (n: AttestedNote): string =>
  n.signature.status === 'draft' ? PRELIMINARY : n.signature.status === 'amended' ? 'Signed, amended' : 'Signed';

const authorOf = (n: AttestedNote): string | undefined => (n.signature.status !== 'draft' ? n.signature.signedBy : n.author?.trim()) || undefined;

/** The header lines (one paragraph of `**Label:** value` lines, which plain text keeps as lines). */
function header(n: AttestedNote): string {
  const lines = [
    `**Patient:** ${n.patient?.name?.trim() || 'name not given'}`,
    `**Date of birth:** ${n.patient?.dateOfBirth || 'not given'}`,
    `**Encounter date:** ${n.encounterDate || 'not given'}`,
    `**Author:** ${authorOf(n) ?? 'not given'}`,
    `**Status:** ${statusText(n)}`,
  ];
  return lines.join('\n');
}

/** The note's body, its signature (or the preliminary mark), then each addendum signed, without codes. */
function body(n: AttestedNote): string {
  const out = [header(n), n.markdown.trim()];
  if (n.signature.status === 'draft' || n.signature.signedAt === undefined) out.push(`**${PRELIMINARY}.**`);
  else out.push(`**${signatureLine(n.signature.signedBy ?? '', n.signature.signedAt, n.timeZone)}**`);
  for (const a of n.addenda ?? []) {
    out.push(`## Addendum, ${localTime(a.createdAt, n.timeZone)}`, a.text.trim(), `**Addendum ${signatureLine(a.author, a.createdAt, n.timeZone).replace(/^E/, 'e')}**`);
  }
  return out.join('\n\n');
}

/** The note as an attested Markdown document. */
export function attestedMarkdown(n: AttestedNote): string {
  const parts = [`# Clinical note`, body(n)];
  if (n.codes?.length) parts.push(`## Accepted codes\n\n${n.codes.map((c) => `- ${c.code}${c.display ? ` ${c.display}` : ''} (${c.system})`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** The note as attested plain text (export and clipboard): the same, headings in capitals, codes last. */
export function attestedPlainText(n: AttestedNote): string {
  const text = markdownToPlainText(`# Clinical note\n\n${body(n)}\n`);
  const codes = codesPlainText(n.codes ?? []);
  return codes ? `${text.trimEnd()}\n\n${codes}` : text;
}

/** What the PDF needs beyond the text: the line at the top of each page and whether to mark it preliminary. */
export function pdfFrame(n: AttestedNote): { header: string; preliminary: boolean } {
  return { header: identityLine(n), preliminary: n.signature.status === 'draft' };
}

/** The body of the PDF (title and page header are drawn by the PDF writer). */
export function attestedPdfMarkdown(n: AttestedNote): string {
  const md = attestedMarkdown(n);
  return md.replace(/^# Clinical note\n\n/, '');
}
