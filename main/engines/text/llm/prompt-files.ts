/**
 * Prompt files (`resources/prompts/<task>.md`), one per task, read from disk so they can be
 * reviewed and changed without touching code. A file holds a system part and a user part:
 *
 *   === system ===
 *   ... {{placeholder}} ... {{#optional}}shown only when optional is non-empty{{/optional}}
 *   === user ===
 *   ...
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateAppFiles } from '../../../app-files.js';

export interface PromptTemplate {
  system: string;
  user: string;
}

/**
 * The bundled prompts folder (main/app-files.ts), for callers that pass none. Composition passes
 * `config.resources.promptsDir`, which is the same folder unless the packaged app moved it.
 */
export function defaultPromptsDir(): string {
  return locateAppFiles().promptsDir;
}

/**
 * Reads and splits one prompt file.
 * @param task file name without `.md` (`note`, `style`)
 * @param dir prompts folder; default {@link defaultPromptsDir}
 */
export function loadPrompt(task: string, dir = defaultPromptsDir()): PromptTemplate {
  const text = readFileSync(join(dir, `${task}.md`), 'utf8');
  const match = /^=== system ===\s*\n([\s\S]*?)\n=== user ===\s*\n([\s\S]*)$/m.exec(text);
  if (!match) throw new Error(`prompt file ${task}.md lacks its "=== system ===" and "=== user ===" parts`);
  return { system: match[1]!.trim(), user: match[2]!.trim() };
}

/**
 * Fills `{{name}}` placeholders and keeps `{{#name}}...{{/name}}` blocks only when `name` is
 * non-empty. Unknown placeholders become empty, so a prompt never shows template syntax.
 */
export function fillPrompt(template: string, values: Record<string, string | undefined>): string {
  const withBlocks = template.replace(/\{\{#(\w+)\}\}([\s\S]*?)\{\{\/\1\}\}/g, (_m, name: string, inner: string) =>
    values[name]?.trim() ? inner : '',
  );
  return withBlocks.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => values[name] ?? '').replace(/\n{3,}/g, '\n\n').trim();
}
