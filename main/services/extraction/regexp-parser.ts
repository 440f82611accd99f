import * as regjsparser from 'regjsparser';
import type { AstNode } from 'regjsparser';

export type { AstNode };

type ParseFn = (pattern: string, flags: string, features?: Record<string, boolean>) => unknown;

// regjsparser is CommonJS without detectable named exports: take `parse` from whichever shape loads.
const parseImpl: ParseFn =
  (regjsparser as unknown as { parse?: ParseFn }).parse ??
  (regjsparser as unknown as { default: { parse: ParseFn } }).default.parse;

/** Parses an ECMA-262 pattern into regjsparser's AST (throws on syntax errors). */
export function parseRegExp(pattern: string, flags: string): AstNode {
  return parseImpl(pattern, flags, { lookbehind: true, namedGroups: true, unicodePropertyEscape: true }) as AstNode;
}
