import type { FieldNode, TextExtractor } from '../../services/extraction/ports.js';
import { createExtractionService, type ExtractionDeps, type ExtractionService } from '../../services/extraction/index.js';
import { readFacts } from './facts.js';
import { readField } from './field-reader.js';

/**
 * The embedded, rule-based clinical reader: no model needed. It reads the text once
 * (sections, demographics, vitals, medications, allergies, findings with negation) and then
 * answers each field from its name, description, type, format and enum.
 */
export function createEmbeddedExtractor(): TextExtractor {
  return {
    extract(text: string, root: FieldNode): unknown {
      const facts = readFacts(text);
      return readField(root, facts);
    },
  };
}

/** The text-to-JSON service reading with the embedded clinical reader (and a model when given). */
export function createEmbeddedExtractionService(deps: Omit<ExtractionDeps, 'extractor'> = {}): ExtractionService {
  return createExtractionService({ ...deps, extractor: createEmbeddedExtractor() });
}
