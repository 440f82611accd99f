/**
 * Prompt files (`resources/prompts/<task>.md`), one per task, read from disk so they can be
 * reviewed and changed without touching code. A file holds a system part and a user part:
 *
 *   === system ===
 *   ... {{placeholder}} ... {{#optional}}shown only when optional is non-empty{{/optional}}
 *   === user ===
 *   ...
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PromptTemplate {
  system: string;
  user: string;
}

/**
 * Finds `resources/prompts` by walking up from this module, so the same code works from the
 * source tree (tsx, tests) and from a build output placed under the repository.
 */
export function defaultPromptsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'resources', 'prompts');
    if (existsSync(join(candidate, 'note.md'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Packaged Electron apps ship resources beside the app archive.
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  return join(resourcesPath ?? join(process.cwd(), 'resources'), 'prompts');
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
