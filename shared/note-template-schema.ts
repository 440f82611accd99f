/**
 * JSON Schema (2020-12) of the contract's NoteTemplate model. The local API validates templates
 * with it (plus `templateProblems` for depth and id uniqueness) and publishes it in OpenAPI;
 * the renderer's template editor validates with the same rules.
 */
const boolean = { type: 'boolean' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const shared = {
  bold: boolean,
  italic: boolean,
  hideIfEmpty: boolean,
  formatting_style: { type: 'string', enum: ['markdown', 'plain'] },
  detail_level: { type: 'string', enum: ['exhaustive', 'detailed', 'standard', 'brief', 'minimal'] },
  tone: { type: 'string', enum: ['formal', 'casual', 'technical', 'friendly', 'instructional'] },
  emptyPlaceholder: { type: 'string', maxLength: 2000 },
} as const;
const id = { type: 'string', minLength: 1, maxLength: 200 } as const;
const prompt = { type: 'string', maxLength: 10_000 } as const;

/** A text or list section: its id, type, prompt, the properties it takes and the shape of its result. */
const writtenSection = <T extends string, P extends object, R extends object>(type: T, properties: P, result: R) => ({
  type: 'object',
  required: ['id', 'type', 'prompt', 'properties'],
  properties: { id, type: { const: type }, prompt, properties, result },
} as const);

export const NOTE_TEMPLATE_SCHEMA = {
  $id: 'https://clindoc.local/schemas/note-template.json',
  type: 'object',
  required: ['id', 'title', 'sections'],
  properties: {
    id,
    title: { type: 'string', minLength: 1, maxLength: 500 },
    global_prompt: prompt,
    sections: { type: 'array', maxItems: 200, items: { $ref: '#/$defs/Section' } },
  },
  $defs: {
    Section: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', enum: ['heading', 'text', 'list'] } },
      // Discriminated by `type` with if/then (not oneOf) so errors come from the one branch that applies.
      allOf: [
        { if: { properties: { type: { const: 'heading' } } }, then: { $ref: '#/$defs/HeadingSection' } },
        { if: { properties: { type: { const: 'text' } } }, then: { $ref: '#/$defs/TextSection' } },
        { if: { properties: { type: { const: 'list' } } }, then: { $ref: '#/$defs/ListSection' } },
      ],
    },
    HeadingSection: {
      type: 'object',
      required: ['id', 'type', 'children', 'properties'],
      properties: {
        id,
        type: { const: 'heading' },
        children: { type: 'array', maxItems: 200, items: { $ref: '#/$defs/Section' } },
        properties: {
          type: 'object',
          required: ['level', 'text'],
          properties: { level: { type: 'integer', minimum: 0, maximum: 6 }, text: { type: 'string', maxLength: 500 }, bold: boolean, italic: boolean, hideIfEmpty: boolean },
        },
        result: { type: 'string' },
      },
    },
    TextSection: writtenSection('text', {
      type: 'object',
      properties: {
        ...shared,
        label: { type: 'string', maxLength: 500 },
        bold_label: boolean,
        italic_label: boolean,
        list_type: { type: 'string', enum: ['bullet', 'numeric'] },
        max_paragraphs: count,
        min_paragraphs: count,
        max_sentences: count,
        min_sentences: count,
      },
    } as const, { type: 'string' } as const),
    ListSection: writtenSection('list', {
      type: 'object',
      required: ['list_type'],
      properties: { ...shared, list_type: { type: 'string', enum: ['bullet', 'numeric'] }, max_items: count, min_items: count },
    } as const, { type: 'array', items: { type: 'string' } } as const),
  },
} as const;
