import { invalidRequest, type DomainError } from '../../services/errors.js';

/**
 * Deepest nesting of objects and arrays a JSON body may have. Real bodies nest a few levels (a
 * text-to-JSON schema a dozen or two); 5,000 to 20,000 levels overflowed the stack of whatever
 * walked the value next (validation, sealing, a worker's structured clone) and answered 500
 * (issue 29). 100 leaves room for any honest schema.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The refusal for a value nested deeper than `max`, or undefined. Walks with its own stack, so a
 * value of any depth is measured without recursion; stops at the first level too deep.
 */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): DomainError | undefined {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return invalidRequest(`body: nested deeper than ${max} levels`);
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return undefined;
}
