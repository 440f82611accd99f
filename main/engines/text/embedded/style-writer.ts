/**
 * The embedded style writer: reads a sample note's sections (headings, order, heading look,
 * list or prose, length) and writes a template text that the embedded note writer (and a
 * language model) can follow to produce notes shaped like the sample.
 */
import type { StyleWriter } from '../../../services/notes/ports.js';
import { invalidRequest } from '../../../services/errors.js';
import { countSentences, isListLine, parseNote, type ParsedSection } from './note-parse.js';
import { targetOfHeading } from './sections.js';

function describe(section: ParsedSection, index: number): string {
  const body = section.lines.filter(Boolean);
  const listLines = body.filter(isListLine);
  const isList = listLines.length > 0 && listLines.length >= body.length / 2;
  const numbered = isList && listLines.every((l) => /^\s*\d{1,2}[.)]/.test(l));
  const count = isList ? listLines.length : countSentences(body.join(' '));
  const unit = isList ? (count === 1 ? 'item' : 'items') : count === 1 ? 'sentence' : 'sentences';
  const detail = count <= 1 ? 'brief' : count <= 3 ? 'standard' : 'detailed';
  const shape = isList ? `${numbered ? 'numbered' : 'bulleted'} list` : 'prose';
  const style = section.headingStyle === 'markdown' ? `markdown ${section.level}` : section.headingStyle;
  const what = targetOfHeading(section.heading);
  const hint = what === 'unknown' ? '' : `; content: ${what}`;
  return `${index + 1}. "${section.heading}" [heading: ${style}] — ${shape}, ${detail}, about ${Math.max(1, count)} ${unit}${hint}.`;
}

/** Build the template text for a sample note and the caller's instructions. */
export function createTemplateText(sampleNote: string, instructions: string[]): string {
  const sections = parseNote(sampleNote).filter((s) => s.heading);
  if (sections.length === 0) throw invalidRequest('sampleNote: no section headings found (use headings such as "Assessment:" or "## Plan")');
  const lines = [
    'Write the note with these sections, in this order, using these exact headings:',
    ...sections.map(describe),
    '',
    'General instructions:',
    '- Write in clinical third person; keep negatives ("denies fever"); use digits for numbers and standard units.',
    '- Include only facts stated in the encounter; leave a section empty rather than guess.',
    ...instructions.map((i) => i.trim()).filter(Boolean).map((i) => `- ${i}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The embedded (no-model) style writer, named `embedded`. */
export function createEmbeddedStyleWriter(): StyleWriter {
  return {
    name: 'embedded',
    async createTemplate(sampleNote: string, instructions: string[]): Promise<string> {
      return createTemplateText(sampleNote, instructions);
    },
  };
}
