/**
 * The model's answer for a note: the JSON schema it must follow (built from the outline), and the
 * checks every answer passes before anything is stored. Error messages name schema paths only,
 * never answer text (patient data).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { splitSentences } from '../../../services/clinical-language/tokenize.js';
import { contentSections, maxChars, type NotePlan, type PlanSection } from './note-plan.js';

type Json = Record<string, unknown>;

/** A section's content after validation: prose or list items. */
export type SectionContent = string | string[];

export interface NoteAnswer {
  /** Content by section key (content sections only; groups are flattened). */
  content: Map<string, SectionContent>;
  /** Free-form notes (template named no sections): the model's own headings and text. */
  freeSections: { heading: string; content: string }[];
  /** Translated headings by section key, when asked for. */
  headings: Map<string, string>;
}

export class UnusableAnswerError extends Error {}

const DEFAULT_MAX_ITEMS = 40;
const ITEM_CHARS = 600;

function sectionSchema(section: PlanSection, bounded: boolean): Json {
  if (section.kind === 'group') return objectSchema(section.children, bounded, section.heading);
  const description = section.guidance || section.heading || section.label || section.key;
  if (section.kind === 'text') return { type: 'string', description, ...(bounded ? { maxLength: maxChars(section) } : {}) };
  return {
    type: 'array',
    description,
    items: { type: 'string', ...(bounded ? { maxLength: ITEM_CHARS } : {}) },
    // min_items is left to the prompt: forcing items would force the model to invent them.
    ...(bounded ? { maxItems: section.maxItems ?? DEFAULT_MAX_ITEMS } : {}),
  };
}

function objectSchema(sections: PlanSection[], bounded: boolean, description?: string, extra: Json = {}): Json {
  const properties: Json = {};
  for (const s of sections) properties[s.key] = sectionSchema(s, bounded);
  Object.assign(properties, extra);
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** Sections whose heading the model translates (headings and labels the template wrote in its own words). */
export function translatableSections(plan: NotePlan): PlanSection[] {
  const walk = (list: PlanSection[]): PlanSection[] => list.flatMap((s) => [...(s.heading || s.label ? [s] : []), ...walk(s.children)]);
  return walk(plan.sections);
}

/**
 * JSON schema for the model's answer.
 * @param bounded include length and item caps (sent to the model: they keep a looping model finite);
 *   validation uses the unbounded form and trims instead, so a long but sound answer is not lost.
 * @param translateHeadings ask for a `headings` object with each heading in the note's language
 */
export function answerSchema(plan: NotePlan, bounded: boolean, translateHeadings: boolean): Json {
  if (plan.freeForm) {
    const item = objectSchema([], bounded, undefined, {
      heading: { type: 'string', ...(bounded ? { maxLength: 80 } : {}) },
      content: { type: 'string', ...(bounded ? { maxLength: 4000 } : {}) },
    });
    return objectSchema([], bounded, undefined, { sections: { type: 'array', items: item, ...(bounded ? { maxItems: 20 } : {}) } });
  }
  const extra: Json = {};
  if (translateHeadings) {
    const named = translatableSections(plan);
    const props = Object.fromEntries(named.map((s) => [s.key, { type: 'string', ...(bounded ? { maxLength: 100 } : {}) }]));
    extra.headings = { type: 'object', properties: props, required: Object.keys(props), additionalProperties: false };
  }
  return objectSchema(plan.sections, bounded, undefined, extra);
}

/** Pulls the JSON object out of a model answer (code fences and chatter around it are tolerated). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new UnusableAnswerError('the answer holds no JSON object');
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch {
    throw new UnusableAnswerError('the answer is not valid JSON');
  }
}

const clean = (s: string): string => s.replace(/\s+\n/g, '\n').replace(/[ \t]{2,}/g, ' ').trim();
// A list item the model numbered or bulleted itself: the renderer adds its own marker.
const cleanItem = (s: string): string => clean(s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, ''));

/** Keeps the first `max` sentences of a prose answer. */
export function limitSentences(text: string, max: number | undefined): string {
  if (!max) return text;
  const sentences = splitSentences(text);
  return sentences.length <= max ? text : sentences.slice(0, max).join(' ');
}

/**
 * Compiles the validator for a plan and returns a function that turns raw model text into a
 * checked {@link NoteAnswer}, or throws {@link UnusableAnswerError} saying what was wrong.
 */
export function createAnswerReader(plan: NotePlan, translateHeadings: boolean): (text: string) => NoteAnswer {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validate: ValidateFunction = ajv.compile(answerSchema(plan, false, translateHeadings));
  return (text) => {
    const value = extractJson(text);
    if (!validate(value)) {
      const e = validate.errors?.[0];
      throw new UnusableAnswerError(`the answer does not match the note schema (${e?.instancePath || '/'} ${e?.message ?? ''})`.trim());
    }
    const answer: NoteAnswer = { content: new Map(), freeSections: [], headings: new Map() };
    const root = value as Json;
    if (plan.freeForm) {
      for (const s of root.sections as { heading: string; content: string }[]) {
        if (s.heading.trim() && s.content.trim()) answer.freeSections.push({ heading: clean(s.heading), content: clean(s.content) });
      }
      return answer;
    }
    const read = (sections: PlanSection[], obj: Json): void => {
      for (const s of sections) {
        const v = obj[s.key];
        if (s.kind === 'group') read(s.children, v as Json);
        else if (s.kind === 'text') answer.content.set(s.key, limitSentences(clean(v as string), s.maxSentences));
        else {
          const items = (v as string[]).map(cleanItem).filter(Boolean);
          answer.content.set(s.key, s.maxItems ? items.slice(0, s.maxItems) : items);
        }
      }
    };
    read(plan.sections, root);
    if (translateHeadings && root.headings) {
      for (const [k, v] of Object.entries(root.headings as Record<string, string>)) if (v.trim()) answer.headings.set(k, clean(v));
    }
    // Every content section must be present (checked by the schema); nothing else is kept.
    if (contentSections(plan.sections).some((s) => !answer.content.has(s.key))) throw new UnusableAnswerError('the answer misses a section');
    return answer;
  };
}
