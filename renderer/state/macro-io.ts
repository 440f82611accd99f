import { ApiError, type ApiClient } from '../api/client.js';
import type { MacroDefinition } from '../api/types.js';

/**
 * Reads a macro library file: an array of macros, or `{macros: [...]}`. Checks each macro the way
 * the API does (id 1-200 chars, 1-50 spoken examples, an expansion) and names the first problem.
 */
export function parseMacroFile(text: string): MacroDefinition[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('The file is not JSON.');
  }
  const list = Array.isArray(data) ? data : (data as { macros?: unknown })?.macros;
  if (!Array.isArray(list)) throw new Error('Expected a list of macros, or an object with a "macros" list.');
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const m = raw as Partial<MacroDefinition>;
    const where = `Macro ${i + 1}`;
    if (typeof m?.id !== 'string' || !m.id.trim() || m.id.length > 200) throw new Error(`${where}: "id" must be a text of 1 to 200 characters.`);
    if (seen.has(m.id)) throw new Error(`${where}: the id "${m.id}" appears twice.`);
    seen.add(m.id);
    if (!Array.isArray(m.examples) || m.examples.length < 1 || m.examples.length > 50 || m.examples.some((e) => typeof e !== 'string' || !e.trim() || e.length > 500))
      throw new Error(`${where} (${m.id}): "examples" must list 1 to 50 spoken forms.`);
    if (typeof m.expansion_text !== 'string' || m.expansion_text.length > 20_000) throw new Error(`${where} (${m.id}): "expansion_text" must be a text.`);
    if (m.trigger !== undefined && m.trigger !== 'auto' && m.trigger !== 'insert') throw new Error(`${where} (${m.id}): "trigger" must be "auto" or "insert".`);
    return { id: m.id, examples: m.examples.map((e) => e.trim()), expansion_text: m.expansion_text, ...(m.trigger === 'insert' ? { trigger: 'insert' as const } : {}) };
  });
}

/** Saves macros into the library: new ids are created, existing ones replaced. */
export async function importMacros(client: ApiClient, macros: MacroDefinition[]): Promise<{ created: number; replaced: number }> {
  let created = 0;
  let replaced = 0;
  for (const m of macros) {
    try {
      await client.createMacro(m);
      created++;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) throw err;
      await client.replaceMacro(m.id, m);
      replaced++;
    }
  }
  return { created, replaced };
}

/** The library as a file others can import. */
export function macroFile(macros: MacroDefinition[]): string {
  return `${JSON.stringify({ macros }, null, 2)}\n`;
}
