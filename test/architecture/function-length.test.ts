import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';

/**
 * No function in main/ runs over 120 lines (issue 28): a factory that grows past a screenful of
 * screens hides its parts in one closure, where a reader cannot see what each part needs. The
 * count is from a function's first line to its last, nested functions included in their parent,
 * so splitting a factory into inner closures does not pass; named parts at module level do.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIMIT = 120;

interface LongFunction { file: string; line: number; name: string; lines: number }

interface AstNode {
  type: string;
  loc?: { start: { line: number }; end: { line: number } } | null;
  id?: { name?: string } | null;
  key?: { name?: string } | null;
  [field: string]: unknown;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Every function over the limit in one file's source, with the name a reader would search for. */
function longFunctions(file: string, source: string, limit = LIMIT): LongFunction[] {
  const ast = parse(source, { sourceType: 'module', plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'] });
  const found: LongFunction[] = [];
  const visit = (node: AstNode, name: string): void => {
    if (FUNCTION_TYPES.has(node.type) && node.loc) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines > limit) found.push({ file, line: node.loc.start.line, name: node.id?.name ?? node.key?.name ?? name, lines });
    }
    for (const [field, value] of Object.entries(node)) {
      if (field === 'loc' || field === 'leadingComments' || field === 'trailingComments') continue;
      const childName = node.type === 'VariableDeclarator' && isNode(node.id) ? (node.id.name ?? name) : name;
      for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) visit(child, childName);
    }
  };
  visit(ast.program as unknown as AstNode, '(anonymous)');
  return found;
}

describe('function length', () => {
  it('finds a long function, an inner closure counting toward its parent', () => {
    const body = Array.from({ length: 130 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = `export const createThing = () => {\n  const inner = () => 1;\n${body}\n  return inner;\n};\n`;
    const found = longFunctions('x.ts', source);
    expect(found.map((f) => [f.name, f.lines])).toEqual([['createThing', 134]]);
    expect(longFunctions('x.ts', 'export function short(): number {\n  return 1;\n}\n')).toEqual([]);
  });

  it('no function in main/ is over 120 lines', () => {
    const offenders = sourceFiles(join(ROOT, 'main')).flatMap((path) =>
      longFunctions(relative(ROOT, path), readFileSync(path, 'utf8')));
    expect(offenders.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });
});
