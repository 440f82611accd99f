import type { FieldNode, TextExtractor } from '../../services/extraction/ports.js';
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
