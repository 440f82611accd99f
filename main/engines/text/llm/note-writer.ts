/**
 * NoteWriter on top of any LanguageModel (OpenAI-compatible server or in-process llama.cpp).
 * The model fills the note's sections as schema-constrained JSON; every answer is parsed and
 * validated before use, drug names are corrected against `medicationList`, and the note is rendered
 * by code. Facts the sources do not state are removed or marked by the note service's fidelity
 * checker (`services/notes/fidelity.ts`), the same rule as for the embedded writer.
 */
import type { LanguageModel } from '../../../services/language-model.js';
import type { GeneratedNote, NoteGenerationInput, NoteWriter } from '../../../services/notes/ports.js';
import { DomainError } from '../../../services/errors.js';
import { noteLabels, type NoteLabels } from '../../../services/clinical-language/section-labels.js';
import { buildNotePlan, contentSections, type NotePlan, type PlanSection } from './note-plan.js';
import { answerSchema, createAnswerReader, translatableSections, UnusableAnswerError, type NoteAnswer } from './note-answer.js';
import { renderNote } from './note-render.js';
import { correctMedicationNames, parseMedicationList } from '../../../services/clinical-language/medications.js';
import { fillPrompt, loadPrompt } from './prompt-files.js';
import { groundingText, readFactsFor } from './note-grounding.js';
import type { EncounterFacts } from '../../../services/encounter/types.js';

export interface LlmNoteWriterOptions {
  /** Folder holding `note.md`; default `resources/prompts` found from this module. */
  promptsDir?: string;
  /** Token budget for the answer. Default 3000. */
  maxTokens?: number;
  /** Answers asked for when one is unusable (bad JSON, wrong shape): the first and at most two retries. Default 3. */
  attempts?: number;
}

function describeSection(s: PlanSection, depth: number): string {
  const pad = '  '.repeat(depth);
  if (s.kind === 'group') {
    return [`${pad}- "${s.key}": object for the part headed "${s.heading}", with:`, ...s.children.map((c) => describeSection(c, depth + 1))].join('\n');
  }
  const bits: string[] = [];
  const name = s.heading || s.label;
  if (name) bits.push(`"${name}"`);
  if (s.kind === 'list') {
    bits.push('list of strings');
    if (s.minItems) bits.push(`at least ${s.minItems} items when the encounter supports them`);
    if (s.maxItems) bits.push(`at most ${s.maxItems} items`);
  } else {
    bits.push('string of prose');
    if (s.minSentences) bits.push(`at least ${s.minSentences} sentences when the encounter supports them`);
    if (s.maxSentences) bits.push(`at most ${s.maxSentences} sentences`);
    if (s.maxParagraphs) bits.push(`at most ${s.maxParagraphs} paragraphs`);
  }
  if (s.detail !== 'standard') bits.push(`detail: ${s.detail}`);
  if (s.tone !== 'formal') bits.push(`tone: ${s.tone}`);
  const guidance = s.guidance && s.guidance !== name ? `: ${s.guidance}` : '';
  return `${pad}- "${s.key}" (${bits.join(', ')})${guidance}`;
}

function describePlan(plan: NotePlan): string {
  if (plan.freeForm) {
    return '- "sections": list of {"heading", "content"} objects, the sections a clinician would expect for this note, in a sensible order.';
  }
  return plan.sections.map((s) => describeSection(s, 0)).join('\n');
}

function prompts(input: NoteGenerationInput, plan: NotePlan, labels: NoteLabels, translate: boolean, dir?: string, facts?: EncounterFacts): { system: string; user: string } {
  const template = loadPrompt('note', dir);
  const patient = [input.patientInfo?.name, input.patientInfo?.dateOfBirth ? `born ${input.patientInfo.dateOfBirth}` : '']
    .filter(Boolean)
    .join(', ');
  const values: Record<string, string | undefined> = {
    language: labels.languageName,
    sections: describePlan(plan),
    general: plan.general,
    instructions: (input.instructions ?? []).filter((i) => i.trim()).map((i) => `- ${i.trim()}`).join('\n'),
    context: input.context,
    previousNote: input.previousNote,
    fromPreviousNote: labels.fromPreviousNote,
    medicationList: parseMedicationList(input.medicationList).join(', '),
    headings: translate ? 'yes' : '',
    patient,
    date: input.date,
    transcript: input.transcript,
    facts: facts ? groundingText(facts) : undefined,
  };
  return { system: fillPrompt(template.system, values), user: fillPrompt(template.user, values) };
}

/** Applies spelling correction to every piece of content (fidelity is checked on the whole note, by the note service). */
function postProcess(answer: NoteAnswer, plan: NotePlan, input: NoteGenerationInput): void {
  const meds = parseMedicationList(input.medicationList);
  const fix = (text: string): string => correctMedicationNames(text, meds);
  for (const s of contentSections(plan.sections)) {
    const c = answer.content.get(s.key);
    if (c === undefined) continue;
    answer.content.set(s.key, Array.isArray(c) ? c.map(fix).filter((x) => x.trim() !== '') : fix(c));
  }
  answer.freeSections = answer.freeSections.map((f) => ({ heading: f.heading, content: fix(f.content) })).filter((f) => f.content.trim());
}

/**
 * Creates a NoteWriter that asks `model` for the note's sections as JSON.
 * Throws a 503 DomainError when the model is down or its answers stay unusable.
 */
export function createLlmNoteWriter(model: LanguageModel, options: LlmNoteWriterOptions = {}): NoteWriter {
  const attempts = Math.max(1, options.attempts ?? 3);
  return {
    name: `llm-${model.name}`,
    async write(input: NoteGenerationInput): Promise<GeneratedNote> {
      const labels = noteLabels(input.language);
      const plan = buildNotePlan(input.noteType, labels);
      const translate = input.language !== 'en' && input.noteType.type !== 'soap' && !plan.freeForm && translatableSections(plan).length > 0;
      const read = createAnswerReader(plan, translate);
      // The encounter understood once: the model is grounded in it, and the checker holds the note to it.
      const facts = readFactsFor(input);
      const { system, user } = prompts(input, plan, labels, translate, options.promptsDir, facts);
      const jsonSchema = answerSchema(plan, true, translate);
      let problem = '';
      for (let attempt = 0; attempt < attempts; attempt++) {
        // The retry tells the model what was wrong in schema terms only (no answer text).
        const retryNote = problem ? `\n\nYour previous answer could not be used: ${problem}. Answer again with the JSON object only.` : '';
        const result = await model.complete({ system: system + retryNote, user, jsonSchema, maxTokens: options.maxTokens ?? 3000, temperature: 0 });
        try {
          const answer = read(result.text);
          postProcess(answer, plan, input);
          const note = renderNote(plan, answer, input, labels);
          return { markdown: note.markdown, ...(input.noteType.includeJson ? { json: note.json } : {}), ...(facts ? { facts } : {}) };
        } catch (err) {
          if (!(err instanceof UnusableAnswerError)) throw err;
          problem = result.finishReason === 'length' ? `${err.message}; it was cut off at the token limit, so be more concise` : err.message;
        }
      }
      // Not `engine_unavailable`: a model that answers garbage is not asked again later by the job runner.
      throw new DomainError('engine_bad_answer', `language model gave no usable note in ${attempts} answers: ${problem}`);
    },
  };
}
