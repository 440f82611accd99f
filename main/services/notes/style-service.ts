import type { StyleWriter } from './ports.js';
import { invalidRequest } from '../errors.js';

export interface StyleService {
  /** `accountId`: whose note engine writes the template (the embedded writer, or the model the account chose). */
  createTemplate(sampleNote: string, instructions: string[], accountId?: string): Promise<string>;
}

/** Note styles: a sample note plus instructions in, a reusable template text out. */
export function createStyleService(deps: { writer: (accountId?: string) => StyleWriter | Promise<StyleWriter> }): StyleService {
  return {
    async createTemplate(sampleNote, instructions, accountId) {
      if (!sampleNote.trim()) throw invalidRequest('sampleNote: must not be empty');
      const template = await (await deps.writer(accountId)).createTemplate(sampleNote, instructions);
      if (!template.trim()) throw invalidRequest('sampleNote: no note structure could be found in the sample');
      return template;
    },
  };
}
