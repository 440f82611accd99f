import { parseRegExp, type AstNode } from './regexp-parser.js';

/** Canonical sample values for common `format`s: valid, and visibly not patient data. */
export const FORMAT_SAMPLES: Record<string, string> = {
  date: '1970-01-01',
  time: '00:00:00Z',
  'date-time': '1970-01-01T00:00:00Z',
  'iso-time': '00:00:00Z',
  'iso-date-time': '1970-01-01T00:00:00Z',
  duration: 'P0D',
  uri: 'urn:unknown',
  'uri-reference': '#',
  'uri-template': 'urn:unknown',
  iri: 'urn:unknown',
  'iri-reference': '#',
  url: 'http://example.com/',
  email: 'unknown@example.com',
  'idn-email': 'unknown@example.com',
  hostname: 'localhost',
  'idn-hostname': 'localhost',
  ipv4: '0.0.0.0',
  ipv6: '::',
  regex: '.*',
  uuid: '00000000-0000-0000-0000-000000000000',
  'json-pointer': '',
  'json-pointer-uri-fragment': '#',
  'relative-json-pointer': '0',
  byte: '',
  int32: '0',
  int64: '0',
  float: '0',
  double: '0',
  password: '',
  binary: '',
  color: '#000000',
};

const MAX_GENERATED = 4096;

/**
 * Candidate strings that a pattern accepts, shortest first, each padded toward `minLength`
 * where the pattern leaves room. Candidates are proposals: the caller still tests them with the
 * safe engine, because lookarounds and backreferences are only approximated here.
 */
export function stringsForPattern(pattern: string, minLength = 0): string[] {
  let ast: AstNode;
  try {
    ast = parseRegExp(pattern, '');
  } catch {
    try {
      ast = parseRegExp(pattern, 'u');
    } catch {
      return [];
    }
  }
  const out = new Set<string>();
  for (const extra of [0, Math.max(0, minLength), 1, 2, 4]) {
    for (const alt of [0, 1, 2]) {
      const s = generate(ast, { extra, alt });
      if (s !== undefined) out.add(s);
    }
  }
  return [...out].sort((a, b) => a.length - b.length);
}

interface Mode {
  /** Extra repetitions to add to quantifiers (to reach a minimum length). */
  extra: number;
  /** Which alternative of a disjunction to prefer (wraps around). */
  alt: number;
}

function generate(node: AstNode, mode: Mode): string | undefined {
  const parts: string[] = [];
  const emit = (n: AstNode): boolean => {
    if ((n as { type: string }).type === 'unicodePropertyEscape') {
      parts.push((n as { negative?: boolean }).negative ? '0' : 'a');
      return true;
    }
    switch (n.type) {
      case 'alternative':
        return n.body.every((child) => emit(child as AstNode));
      case 'disjunction': {
        const choice = n.body[mode.alt % n.body.length] as AstNode;
        return emit(choice);
      }
      case 'group': {
        // Lookarounds do not consume input; we drop them and rely on the final check.
        const behavior = (n as { behavior?: string }).behavior;
        if (behavior && behavior !== 'normal' && behavior !== 'ignore') return true;
        return n.body.every((child) => emit(child as AstNode));
      }
      case 'quantifier': {
        const max = n.max ?? Number.POSITIVE_INFINITY;
        const count = Math.min(max, n.min + mode.extra, 256);
        for (let i = 0; i < count; i++) {
          if (!emit(n.body[0] as AstNode)) return false;
          if (parts.join('').length > MAX_GENERATED) return false;
        }
        return true;
      }
      case 'value':
        parts.push(String.fromCodePoint(n.codePoint));
        return true;
      case 'dot':
        parts.push('a');
        return true;
      case 'characterClassEscape':
        parts.push({ d: '0', D: 'a', w: 'a', W: '-', s: ' ', S: 'a' }[n.value]);
        return true;
      case 'characterClass':
        return emitClass(n as unknown as ClassNode, parts);
      case 'anchor':
        return true;
      case 'reference':
        return true;
      default:
        return false;
    }
  };
  return emit(node) ? parts.join('') : undefined;
}

interface ClassNode {
  negative: boolean;
  body: { type: string; codePoint?: number; min?: { codePoint: number }; value?: string }[];
}

/** Picks a member of a character class: a readable one when the class allows it. */
function emitClass(node: ClassNode, parts: string[]): boolean {
  const inClass = (cp: number): boolean =>
    node.body.some((item) => {
      if (item.type === 'value') return item.codePoint === cp;
      if (item.type === 'characterClassRange') {
        const range = item as unknown as { min: { codePoint: number }; max: { codePoint: number } };
        return cp >= range.min.codePoint && cp <= range.max.codePoint;
      }
      if (item.type === 'characterClassEscape') {
        const ch = String.fromCodePoint(cp);
        const tests: Record<string, RegExp> = { d: /\d/, D: /\D/, w: /\w/, W: /\W/, s: /\s/, S: /\S/ };
        return tests[item.value ?? '']?.test(ch) ?? false;
      }
      return false;
    });
  const preferred = 'a0A_-. bcxyz1:/@';
  for (const ch of preferred) {
    const cp = ch.codePointAt(0) as number;
    if (inClass(cp) !== node.negative) {
      parts.push(ch);
      return true;
    }
  }
  if (!node.negative) {
    const first = node.body[0];
    if (first?.type === 'value' && first.codePoint !== undefined) parts.push(String.fromCodePoint(first.codePoint));
    else if (first?.type === 'characterClassRange' && first.min) parts.push(String.fromCodePoint(first.min.codePoint));
    else return false;
    return true;
  }
  for (let cp = 33; cp < 0x3000; cp++) {
    if (!inClass(cp)) {
      parts.push(String.fromCodePoint(cp));
      return true;
    }
  }
  return false;
}
