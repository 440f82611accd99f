/**
 * The seam between the extraction service and a text reader (the embedded rule-based engine in
 * `main/engines/extraction/`, or another). The service turns the caller's schema into a plain
 * field tree; the reader answers with hint values shaped like that tree.
 */
export type FieldKind = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'any';

export interface FieldNode {
  /** Property name (empty for the root and for array items). */
  name: string;
  kind: FieldKind;
  /** `description` of the property: the caller's extraction instruction. */
  description?: string;
  title?: string;
  /** Allowed values, when the schema lists them. */
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  /** Object fields, in schema order. */
  fields?: FieldNode[];
  /** Item shape of an array. */
  item?: FieldNode;
}

/**
 * Reads clinical text. Returns hints shaped like `root`: an object of field name to value for
 * objects, arrays for arrays, primitives otherwise; `undefined` where the text says nothing.
 * Hints need not conform: the service builds the conformant answer from them.
 */
export interface TextExtractor {
  extract(text: string, root: FieldNode): unknown;
}
