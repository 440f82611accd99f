/**
 * StyleWriter on top of any LanguageModel: the model outlines the sample note (headings, prose or
 * list, what each section holds), the outline is validated, sizes and heading levels are measured
 * from the sample itself, and the template text is written in the form the note writers read
 * back exactly (see `services/notes/template-text.ts`), so the style round-trips.
 */
import { Ajv } from 'ajv';
import type { LanguageModel } from '../../../services/language-model.js';
import type { StyleWriter } from '../../../services/notes/ports.js';
import { DomainError } from '../../../services/errors.js';
import { extractJson, UnusableAnswerError } from './note-answer.js';
import { fillPrompt, loadPrompt } from './prompt-files.js';
import { splitSentences } from '../../../services/clinical-language/tokenize.js';
import { writeTemplateText, type HeadingStyle, type SectionFormat, type TemplateSection } from '../../../services/notes/template-text.js';

export interface LlmStyleWriterOptions {
  /** Folder holding `style.md`; default `resources/prompts` found from this module. */
  promptsDir?: string;
  /** Answers asked for when one is unusable: the first and at most two retries. Default 3. */
  attempts?: number;
}

interface Outline {
  general: string;
  sections: { heading: string; format: SectionFormat; guidance: string }[];
}

const OUTLINE_SCHEMA = {
  type: 'object',
  properties: {
    general: { type: 'string', maxLength: 400 },
    sections: {
      type: 'array',
      maxItems: 30,
      items: {
        type: 'object',
        properties: {
          heading: { type: 'string', maxLength: 80 },
          format: { enum: ['prose', 'bullet', 'numbered'] },
          guidance: { type: 'string', maxLength: 400 },
        },
        required: ['heading', 'format', 'guidance'],
        additionalProperties: false,
      },
    },
  },
  required: ['general', 'sections'],
  additionalProperties: false,
};

const bare = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const LIST_LINE = /^\s*(?:[-*•]|\d+[.)])\s+/;

interface Measured {
  level: number;
  look: HeadingStyle;
  items: number;
  numbered: number;
  sentences: number;
}

/** Finds each heading's line in the sample and measures the body under it. */
function measure(sample: string, headings: string[]): Map<number, Measured> {
  const lines = sample.replace(/\r\n?/g, '\n').split('\n');
  const starts: { index: number; line: number; level: number; look: HeadingStyle }[] = [];
  let from = 0;
  headings.forEach((h, index) => {
    const want = bare(h);
    for (let i = from; i < lines.length; i++) {
      const line = lines[i]!;
      const stripped = bare(line.replace(/^#+/, '').replace(/:.*$/, ''));
      if (stripped === want || (bare(line).startsWith(want) && /^[#*\s]*[^:]*:/.test(line))) {
        const t = line.trim();
        const hashes = /^(#{1,6})\s/.exec(t);
        const look: HeadingStyle = hashes ? 'markdown' : /^\*\*/.test(t) ? 'bold' : /:/.test(t) ? 'colon' : t === t.toLocaleUpperCase() ? 'caps' : 'markdown';
        starts.push({ index, line: i, level: hashes ? hashes[1]!.length : 2, look });
        from = i + 1;
        return;
      }
    }
  });
  const out = new Map<number, Measured>();
  starts.forEach((s, k) => {
    const end = starts[k + 1]?.line ?? lines.length;
    const first = lines[s.line]!.replace(/^[#*\s]*[^:]*:\s*/, (m) => (m.includes(':') ? '' : m));
    const body = [lines[s.line]!.includes(':') ? first : '', ...lines.slice(s.line + 1, end)].filter((l) => l.trim());
    const items = body.filter((l) => LIST_LINE.test(l)).length;
    const sentences = splitSentences(body.join(' ')).length;
    const numbered = body.filter((l) => /^\s*\d+[.)]\s+/.test(l)).length;
    out.set(s.index, { level: s.level, look: s.look, items, numbered, sentences });
  });
  return out;
}

/**
 * Creates a StyleWriter that asks `model` to outline sample notes.
 * Throws a 503 DomainError when the model is down or its answers stay unusable.
 */
export function createLlmStyleWriter(model: LanguageModel, options: LlmStyleWriterOptions = {}): StyleWriter {
  const validate = new Ajv({ strict: false }).compile(OUTLINE_SCHEMA);
  const attempts = Math.max(1, options.attempts ?? 3);
  return {
    name: `llm-${model.name}`,
    async createTemplate(sampleNote: string, instructions: string[]): Promise<string> {
      const template = loadPrompt('style', options.promptsDir);
      const values = { sampleNote, instructions: instructions.filter((i) => i.trim()).map((i) => `- ${i.trim()}`).join('\n') };
      const system = fillPrompt(template.system, values);
      const user = fillPrompt(template.user, values);
      const allowed = bare(`${sampleNote}\n${instructions.join('\n')}`);
      let problem = '';
      for (let attempt = 0; attempt < attempts; attempt++) {
        const retry = problem ? `\n\nYour previous answer could not be used: ${problem}. Answer again with the JSON object only.` : '';
        const result = await model.complete({ system: system + retry, user, jsonSchema: OUTLINE_SCHEMA, maxTokens: 2000, temperature: 0 });
        try {
          const value = extractJson(result.text);
          if (!validate(value)) throw new UnusableAnswerError(`the answer does not match the outline schema (${validate.errors?.[0]?.instancePath ?? '/'})`);
          const outline = value as unknown as Outline;
          // A heading neither in the sample nor in the instructions would be invented structure.
          const sections = outline.sections.filter((s) => s.heading.trim() && allowed.includes(bare(s.heading)));
          if (sections.length === 0) throw new UnusableAnswerError('no section heading of the answer appears in the sample note');
          const sizes = measure(sampleNote, sections.map((s) => s.heading));
          const written: TemplateSection[] = sections.map((s, i) => {
            const m = sizes.get(i);
            // What the sample shows beats what the model says about it.
            let format: SectionFormat = s.format;
            if (m && m.items > 0) format = m.numbered * 2 > m.items ? 'numbered' : 'bullet';
            else if (m && m.sentences > 0) format = 'prose';
            return {
              heading: s.heading.replace(/[#*_`]/g, '').replace(/:\s*$/, '').trim(),
              level: m?.level ?? 2,
              ...(m && m.look !== 'markdown' ? { headingStyle: m.look } : {}),
              format,
              guidance: s.guidance.trim(),
              ...(m && format === 'prose' && m.sentences ? { maxSentences: m.sentences } : {}),
              ...(m && format !== 'prose' && m.items ? { maxItems: m.items } : {}),
            };
          });
          return writeTemplateText({ general: outline.general.trim(), sections: written });
        } catch (err) {
          if (!(err instanceof UnusableAnswerError)) throw err;
          problem = err.message;
        }
      }
      // Not `engine_unavailable`: a model that answers garbage is not asked again later by the job runner.
      throw new DomainError('engine_bad_answer', `language model gave no usable note style in ${attempts} answers: ${problem}`);
    },
  };
}
