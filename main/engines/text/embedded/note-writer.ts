/**
 * The embedded note writer: deterministic, no model. Transcript -> content -> layout (SOAP,
 * free-text template or NoteTemplate) -> markdown and JSON. Nothing is added that the
 * transcript, patientInfo, previousNote or context does not say; carried text is marked.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import type { DetailLevel } from '../../../../shared/note-template.js';
import type { GeneratedNote, NoteGenerationInput, NoteWriter } from '../../../services/notes/ports.js';
import { composeContent, looksEnglish, type NoteContent } from './compose.js';
import { contentFromFacts } from './from-facts.js';
import { understandEncounter } from '../../../services/encounter/understand.js';
import type { EncounterFacts, Unplaced } from '../../../services/encounter/types.js';
import { phrase } from './i18n.js';
import { flatten, resolveKinds, section, type LayoutSection } from './layout.js';
import { noteTemplateLayout, soapLayout } from './layouts.js';
import { correctMedicationNames, parseMedicationList } from '../../../services/clinical-language/medications.js';
import { isListLine, parseNote, stripListMarker } from './note-parse.js';
import { render } from './render.js';
import { guessLanguage } from '../../../services/clinical-language/language-guess.js';
import { kindsOf, targetOfHeading, type SectionKind } from './sections.js';
import { readDirectives, templateLayout } from './template-text.js';

/** The default note_style layout when a template names no sections: the usual clinic note. */
function clinicLayout(language: NoteLanguage, detail: DetailLevel): LayoutSection[] {
  const s = (kind: SectionKind | 'assessment_plan', format: 'prose' | 'list' = 'prose'): LayoutSection =>
    section({ id: kind, title: phrase(language, kind).toUpperCase(), target: kind, headingStyle: 'caps', format, detail });
  return [s('chief_complaint'), s('hpi'), s('ros', 'list'), s('exam', 'list'), s('results'), s('assessment_plan')];
}

function carryForward(content: NoteContent, input: NoteGenerationInput): void {
  const language = input.language;
  if (input.context?.trim()) {
    content.hpi.push({ text: `${phrase(language, 'context')}: ${input.context.trim()}`, weight: 50, index: Number.MAX_SAFE_INTEGER - 2 });
  }
  if (!input.previousNote?.trim()) return;
  const marker = phrase(language, 'fromPreviousNote');
  const carried: SectionKind[] = ['pmh', 'surgical', 'medications', 'allergies', 'social', 'family'];
  for (const sec of parseNote(input.previousNote)) {
    const target = targetOfHeading(sec.heading);
    const kinds = kindsOf(target).filter((k) => carried.includes(k));
    if (kinds.length !== 1) continue;
    const kind = kinds[0]!;
    const lines = sec.lines.filter(Boolean).map((l) => (isListLine(l) ? stripListMarker(l) : l));
    for (const l of lines.slice(0, 6)) {
      if (content[kind].some((i) => i.text.toLowerCase().includes(l.toLowerCase()))) continue;
      content[kind].push({ text: `${l} ${marker}`, weight: 4, index: Number.MAX_SAFE_INTEGER - 1 });
    }
  }
}

function layoutFor(input: NoteGenerationInput, detail: DetailLevel, format?: 'prose' | 'list'): { layout: LayoutSection[]; title?: string } {
  const { noteType, language } = input;
  if (noteType.type === 'note_template' && noteType.noteTemplate) {
    return { layout: noteTemplateLayout(noteType.noteTemplate, detail), title: noteType.noteTemplate.title };
  }
  if (noteType.type === 'soap') return { layout: soapLayout(language, detail), title: phrase(language, 'soapTitle') };
  const parsed = noteType.template?.trim() ? templateLayout(noteType.template, detail) : undefined;
  const layout = parsed && parsed.layout.length > 0 ? parsed.layout : clinicLayout(language, detail);
  if (format) for (const s of layout) if (s.target !== 'chief_complaint' && s.target !== 'hpi') s.format = format;
  return { layout };
}

function header(input: NoteGenerationInput): string[] {
  const lines: string[] = [];
  const l = input.language;
  if (input.patientInfo?.name) lines.push(`**${phrase(l, 'patient')}:** ${input.patientInfo.name}`);
  if (input.patientInfo?.dateOfBirth) lines.push(`**${phrase(l, 'dateOfBirth')}:** ${input.patientInfo.dateOfBirth}`);
  if (input.date) lines.push(`**${phrase(l, 'date')}:** ${input.date.slice(0, 10)}`);
  return lines;
}

/** Write one note; synchronous core shared by the writer and the benchmark. */
export function writeNoteSync(input: NoteGenerationInput): GeneratedNote {
  const listed = parseMedicationList(input.medicationList);
  const transcript = correctMedicationNames(input.transcript, listed);
  const globalText = [
    ...(input.instructions ?? []),
    ...(input.noteType.noteTemplate?.global_prompt ? [input.noteType.noteTemplate.global_prompt] : []),
  ];
  const directives = readDirectives(globalText);
  const templateDirectives = input.noteType.type === 'note_style' && input.noteType.template ? templateLayout(input.noteType.template, 'standard').directives : undefined;
  const detail = directives.detail ?? templateDirectives?.detail ?? 'standard';
  // One understanding of the encounter: an English transcript is read into facts and every
  // section is written from them; another language is routed sentence by sentence, as said.
  const english = looksEnglish(transcript);
  let unplaced: Unplaced[] = [];
  let facts: EncounterFacts | undefined;
  let content: NoteContent;
  let problems: string[];
  if (english) {
    facts = understandEncounter({
      transcript: input.transcript, ...(input.patientInfo ? { patientInfo: input.patientInfo } : {}), ...(input.medicationList ? { medicationList: input.medicationList } : {}), language: input.language,
    });
    ({ content, problems } = contentFromFacts(facts, undefined, input.language));
    unplaced = facts.unplaced;
  } else ({ content, problems } = composeContent(transcript, input.language, listed));
  // The transcript's language: what the phrase tables cannot write stays in it, marked.
  const source = english ? 'en' : guessLanguage(transcript) ?? input.language;
  carryForward(content, input);
  for (const text of [...directives.exclude, ...(templateDirectives?.exclude ?? [])]) {
    for (const kind of kindsOf(targetOfHeading(text))) content[kind] = [];
  }
  const { layout, title } = layoutFor(input, detail, directives.format ?? templateDirectives?.format);
  resolveKinds(layout);
  if (directives.format === 'list') for (const s of flatten(layout)) if (s.kinds.length && !s.kinds.includes('chief_complaint')) s.format = 'list';
  const { markdown, json } = render(layout, content, input.language, header(input), title, problems, source);
  // The facts go with the note so the fidelity checker holds it to the same understanding without reading the transcript again.
  const note: GeneratedNote = { markdown, ...(facts ? { facts } : {}) };
  // What was said but could not be placed with confidence is listed for the physician, never dropped silently.
  const review = unplaced.length ? { unplaced: unplaced.map((u) => ({ text: u.text, section: u.section, reason: u.reason, evidence: u.evidence })) } : undefined;
  if (input.noteType.includeJson) note.json = { ...json, ...(review ? { unplaced: review.unplaced } : {}) };
  // Passages left in the transcript's language are always reported (the note service keeps them).
  else if ((Array.isArray(json.untranslated) && json.untranslated.length > 0) || review) {
    note.json = { ...(Array.isArray(json.untranslated) && json.untranslated.length > 0 ? { untranslated: json.untranslated } : {}), ...(review ? { unplaced: review.unplaced } : {}) };
  }
  return note;
}

/** The embedded (no-model) note writer, named `embedded`. */
export function createEmbeddedNoteWriter(): NoteWriter {
  return {
    name: 'embedded',
    async write(input: NoteGenerationInput): Promise<GeneratedNote> {
      return writeNoteSync(input);
    },
  };
}
