/**
 * Part of the one composition: the note and style writers of an account, by its note engine. The
 * embedded writers compute in the compute pool (compose-compute.ts); model and server writers wait
 * on their model here, and a note whose model or server fails is written by the embedded writer,
 * in the compute pool, marked.
 */
import type { ClindocConfig } from './config.js';
import type { ComposedEngines } from './compose-engine-choice.js';
import type { ComputePool } from './services/compute/ports.js';
import { offloadedNoteWriter, offloadedStyleWriter } from './services/compute/offloaded.js';
import type { NoteWriter, StyleWriter } from './services/notes/ports.js';
import { createLlmStyleWriter } from './engines/text/llm/style-writer.js';

export interface ComposedWriters {
  noteWriter(accountId: string): Promise<NoteWriter>;
  styleWriter(accountId?: string): Promise<StyleWriter>;
}

export function composeWriters(config: ClindocConfig, engines: Pick<ComposedEngines, 'registry' | 'settings' | 'textEngineOf'>, compute: ComputePool): ComposedWriters {
  const { registry, settings } = engines;
  const styleWriters = new Map<string, StyleWriter>();
  return {
    async noteWriter(accountId) {
      const name = await settings.resolveNotes(accountId);
      if (name === 'embedded') return offloadedNoteWriter(compute);
      return registry.noteWriter(name, { policy: () => settings.failurePolicy(accountId), fallback: offloadedNoteWriter(compute) });
    },
    async styleWriter(accountId) {
      const { name } = await engines.textEngineOf(accountId);
      let styleWriter = styleWriters.get(name);
      if (!styleWriter) {
        const model = registry.languageModel(name);
        styleWriter = model ? createLlmStyleWriter(model, { promptsDir: config.resources.promptsDir }) : offloadedStyleWriter(compute);
        styleWriters.set(name, styleWriter);
      }
      return styleWriter;
    },
  };
}
