import type { StyleWriter } from './ports.js';
import { invalidRequest } from '../errors.js';

export interface StyleService {
  createTemplate(sampleNote: string, instructions: string[]): Promise<string>;
}

/** Note styles: a sample note plus instructions in, a reusable template text out. */
export function createStyleService(deps: { writer: () => StyleWriter }): StyleService {
  return {
    async createTemplate(sampleNote, instructions) {
      if (!sampleNote.trim()) throw invalidRequest('sampleNote: must not be empty');
      const template = await deps.writer().createTemplate(sampleNote, instructions);
      if (!template.trim()) throw invalidRequest('sampleNote: no note structure could be found in the sample');
      return template;
    },
  };
}
