import { RE2JS } from 're2js';
import { parseRegExp, type AstNode } from './regexp-parser.js';

/** What ajv and the generator need from a compiled caller pattern. */
export interface SafeRegExp {
  test(input: string): boolean;
  /** Identifies the pattern (ajv caches compiled patterns by this string). */
  toString(): string;
}

/** Raised when a caller's `pattern` cannot be evaluated in bounded time. */
export class UnsafePatternError extends Error {}

/** Longest string the native-engine fallback is ever asked to test (bounds its worst case). */
const NATIVE_MAX_INPUT = 512;

/**
 * Compiles an ECMA-262 pattern without exposing the process to catastrophic backtracking.
 * RE2 (the pure-JS `re2js` port, linear time) runs every pattern it understands. Patterns it
 * cannot express (lookaround, backreferences) fall back to V8 only when they have no nested
 * unbounded repetition, and only on inputs of bounded length; anything else is refused.
 */
export function compileSafeRegExp(pattern: string, flags = ''): SafeRegExp {
  // ajv keys its pattern cache by `toString()`: each compiled pattern must name itself.
  const name = `/${pattern}/${flags}`;
  const re2Flags = flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags);
    return { test: (input: string) => re.test(input), toString: () => name };
  } catch {
    // Not expressible in RE2: judge the pattern's shape before trusting the backtracking engine.
  }
  const native = nativeRegExp(pattern, flags);
  if (hasNestedRepetition(pattern)) {
    throw new UnsafePatternError('pattern combines lookaround or backreferences with nested repetition');
  }
  return {
    test: (input: string) => (input.length > NATIVE_MAX_INPUT ? false : native.test(input)),
    toString: () => name,
  };
}

function nativeRegExp(pattern: string, flags: string): RegExp {
  const plain = flags.replace(/[^imsu]/g, '');
  try {
    return new RegExp(pattern, plain.includes('u') ? plain : `${plain}u`);
  } catch {
    // Many real-world schemas were written for non-unicode engines (`\-` outside a class...).
    return new RegExp(pattern, plain.replace('u', ''));
  }
}

/** True when an unbounded quantifier contains another quantifier (star height above one). */
function hasNestedRepetition(pattern: string): boolean {
  let ast: AstNode;
  try {
    ast = parseRegExp(pattern, '');
  } catch {
    return true;
  }
  const visit = (node: AstNode, insideUnbounded: boolean): boolean => {
    if (node.type === 'quantifier') {
      if (insideUnbounded) return true;
      const unbounded = node.max === undefined || node.max > 16;
      return node.body.some((child) => visit(child as AstNode, unbounded));
    }
    const children = (node as { body?: unknown }).body;
    if (Array.isArray(children)) return children.some((child) => visit(child as AstNode, insideUnbounded));
    return false;
  };
  return visit(ast, false);
}

/**
 * The `code.regExp` engine handed to ajv: every `pattern` and `patternProperties` key goes
 * through {@link compileSafeRegExp}. `code` names it for ajv's standalone mode (unused here).
 */
export function createAjvRegExpEngine(): ((pattern: string, flags: string) => SafeRegExp) & { code: string } {
  const cache = new Map<string, SafeRegExp>();
  const engine = (pattern: string, flags: string): SafeRegExp => {
    const key = `${flags}/${pattern}`;
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = compileSafeRegExp(pattern, flags);
      if (cache.size > 5000) cache.clear();
      cache.set(key, compiled);
    }
    return compiled;
  };
  return Object.assign(engine, { code: 'clindoc-safe-regexp' });
}
