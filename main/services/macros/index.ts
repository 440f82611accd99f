/**
 * Macro detection and expansion (`POST /v1/macros/detect`, operation `detectAndExpandMacros`).
 * Finds caller-defined macro phrases in recognised speech, tolerating what recognisers and
 * clinicians do to them, and replaces them with their expansions. See docs/macros.md.
 */
import { createHash } from 'node:crypto';
import type { MacroBody, MacroDefinition } from '../../../shared/api/schemas.js';
import { invalidRequest, payloadTooLarge } from '../errors.js';
import type { Candidate } from './detect.js';
import { findCandidates } from './detect.js';
import { contextSkip, isNegativeStatement, type SkipReason } from './context-guard.js';
import type { MacroIndex } from './macro-index.js';
import { buildMacroIndex } from './macro-index.js';
import { expand, resolveOverlaps } from './resolve.js';
// The API counts positions in code points; the coder's converter is the one converter for every span.
import { codePointOffsets } from '../coding/offsets.js';
import { createLexemeTable } from './similarity.js';
import type { Canonicalizer } from './tokenize.js';
import { createCanonicalizer, tokenize } from './tokenize.js';

/**
 * A macro and a detection request, as the API's schemas (shared/api/schemas.ts) declare and the
 * route validates them. `trigger` `auto` (default): the phrase alone expands; `insert`: only when
 * commanded ("insert normal cardiac exam", "dot …", "expand …", "… macro"), for phrases also said
 * in ordinary speech. `min_confidence`: detections below it are dropped (default
 * MACRO_LIMITS.defaultMinConfidence).
 */
export type { MacroDefinition } from '../../../shared/api/schemas.js';
export type MacroDetectRequest = MacroBody;

export interface MacroDetection {
  macro_id: string;
  /** Unicode code points of the original text, end exclusive; `text` is that slice. */
  text_span: { start_char: number; end_char: number; text: string };
  confidence: number;
}

/** A phrase that matched a macro but was left as spoken, and why. */
export interface MacroSkip {
  macro_id: string;
  /** `negated` ("not a normal cardiac exam"), `exception` ("… except for a murmur"), `trigger_required` (an `insert` macro said without its command). */
  reason: SkipReason;
  text_span: { start_char: number; end_char: number; text: string };
  confidence: number;
  /** The words that decided it ("not", "except for"); absent for `trigger_required`. */
  trigger?: { start_char: number; end_char: number; text: string };
}

export interface MacroDetectResult {
  detections: MacroDetection[];
  expanded_text: string;
  /** Matches not expanded (an extension: the contract's fields are unchanged). */
  skipped: MacroSkip[];
}

/** Request limits; beyond them `detect` throws a 413 `payloadTooLarge`. */
export const MACRO_LIMITS = {
  /** Longest `text`, in Unicode code points. */
  maxTextChars: 100_000,
  /** Most macros per request. */
  maxMacros: 1_000,
  /** Most examples per macro. */
  maxExamplesPerMacro: 50,
  /** Longest example, in code points. */
  maxExampleChars: 200,
  /** Longest `expansion_text`, in code points. */
  maxExpansionChars: 20_000,
  /** Longest `expanded_text` the service will build, in UTF-16 code units. */
  maxExpandedChars: 2_000_000,
  /**
   * Default `min_confidence`. On the generated labelled set, detections at or above it were
   * right 99% of the time while keeping recall of noisy dictation (docs/macros.md).
   */
  defaultMinConfidence: 0.6,
} as const;

export interface MacroService {
  /**
   * Detects macros in `request.text` and expands them. Throws `invalidRequest` (400) naming the
   * offending field and `payloadTooLarge` (413) beyond MACRO_LIMITS; nothing else for any input.
   * The API's instance answers later (it runs in the compute pool, under a time budget).
   */
  detect(request: MacroDetectRequest): MacroDetectResult | Promise<MacroDetectResult>;
}

/** The service computing on the caller's thread (the compute pool's workers, tests, benchmarks). */
export interface InlineMacroService extends MacroService {
  detect(request: MacroDetectRequest): MacroDetectResult;
}

/**
 * Creates the macro service. `cacheEntries` (default 16; 0 disables) is how many macro lists
 * keep their built index, keyed by a hash of their examples, so a client that sends the same
 * list with every dictation pays for indexing once.
 */
export function createMacroService(options: { cacheEntries?: number } = {}): InlineMacroService {
  const cacheEntries = Math.max(0, Math.floor(options.cacheEntries ?? 16));
  const cache = new Map<string, MacroIndex>();
  const canonicalize = createCanonicalizer();

  const indexFor = (macros: MacroDefinition[]): MacroIndex => {
    if (cacheEntries === 0) return buildIndex(macros, canonicalize);
    const key = createHash('sha256')
      .update(JSON.stringify(macros.map((m) => m.examples)))
      .digest('base64');
    const hit = cache.get(key);
    if (hit !== undefined) {
      // Re-insert so the map's order is least recently used first.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const built = buildIndex(macros, canonicalize);
    cache.set(key, built);
    if (cache.size > cacheEntries) cache.delete(cache.keys().next().value as string);
    return built;
  };

  return {
    detect(request: MacroDetectRequest): MacroDetectResult {
      const minConfidence = validateRequest(request);
      const { text, macros } = request;
      if (text.length === 0) return { detections: [], expanded_text: text, skipped: [] };
      const index = indexFor(macros);
      const tokens = tokenize(text, canonicalize);
      const all = findCandidates(text, tokens, index, minConfidence);
      // An `insert` macro said without its command takes no part in the competition, so it cannot
      // hide an ordinary macro it overlaps; it is reported only where nothing else won.
      const needsCommand = (c: Candidate): boolean => macros[c.macro].trigger === 'insert' && !c.triggered;
      const contenders = resolveOverlaps(all.filter((c) => !needsCommand(c)), minConfidence);
      const uncommanded = resolveOverlaps(all.filter(needsCommand), minConfidence).filter((c) => !contenders.some((w) => c.start < w.end && w.start < c.end));
      const skips = new Map<Candidate, { reason: SkipReason; trigger?: { start: number; end: number } }>();
      for (const c of uncommanded) skips.set(c, { reason: 'trigger_required' });
      for (const c of contenders) {
        const others = contenders.filter((o) => o !== c);
        const skip = contextSkip(text, c.start, c.end, others, isNegativeStatement(macros[c.macro].examples));
        if (skip) skips.set(c, skip);
      }
      const winners = contenders.filter((c) => !skips.has(c));
      const expansionOf = (c: Candidate): string => macros[c.macro].expansion_text;
      let expandedLength = text.length;
      for (const w of winners) expandedLength += expansionOf(w).length - (w.end - w.start);
      if (expandedLength > MACRO_LIMITS.maxExpandedChars) {
        throw payloadTooLarge(`expanded_text would exceed ${MACRO_LIMITS.maxExpandedChars} characters`);
      }
      const toCodePoint = codePointOffsets(text);
      const span = (start: number, end: number) => ({ start_char: toCodePoint(start), end_char: toCodePoint(end), text: text.slice(start, end) });
      return {
        detections: winners.map((w) => ({ macro_id: macros[w.macro].id, text_span: span(w.start, w.end), confidence: w.confidence })),
        expanded_text: expand(text, winners, expansionOf),
        skipped: [...skips]
          .sort(([a], [b]) => a.start - b.start)
          .map(([c, s]) => ({
            macro_id: macros[c.macro].id, reason: s.reason, text_span: span(c.start, c.end), confidence: c.confidence,
            ...(s.trigger ? { trigger: span(s.trigger.start, s.trigger.end) } : {}),
          })),
      };
    },
  };
}

function buildIndex(macros: MacroDefinition[], canonicalize: Canonicalizer): MacroIndex {
  return buildMacroIndex(macros, canonicalize, createLexemeTable());
}

/** Counts code points without allocating. */
function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

/** Checks the request the HTTP layer may not have; returns the effective min_confidence. */
function validateRequest(request: MacroDetectRequest): number {
  if (request === null || typeof request !== 'object') throw invalidRequest('request body must be an object');
  const { text, macros, min_confidence: minConfidence } = request as Partial<MacroDetectRequest>;
  if (text === undefined) throw invalidRequest('text is required');
  if (typeof text !== 'string') throw invalidRequest('text must be a string');
  if (macros === undefined) throw invalidRequest('macros is required');
  if (!Array.isArray(macros)) throw invalidRequest('macros must be an array');
  if (text.length > MACRO_LIMITS.maxTextChars && codePointLength(text) > MACRO_LIMITS.maxTextChars) {
    throw payloadTooLarge(`text exceeds ${MACRO_LIMITS.maxTextChars} characters`);
  }
  if (macros.length > MACRO_LIMITS.maxMacros) throw payloadTooLarge(`macros exceeds ${MACRO_LIMITS.maxMacros} entries`);
  if (minConfidence !== undefined && (typeof minConfidence !== 'number' || !(minConfidence >= 0 && minConfidence <= 1))) {
    throw invalidRequest('min_confidence must be a number from 0 to 1');
  }
  const ids = new Set<string>();
  macros.forEach((macro: unknown, m) => {
    const where = `macros[${m}]`;
    if (macro === null || typeof macro !== 'object' || Array.isArray(macro)) throw invalidRequest(`${where} must be an object`);
    const { id, examples, expansion_text: expansion, trigger } = macro as Partial<MacroDefinition>;
    if (typeof id !== 'string') throw invalidRequest(`${where}.id must be a string`);
    if (trigger !== undefined && trigger !== 'auto' && trigger !== 'insert') throw invalidRequest(`${where}.trigger must be "auto" or "insert"`);
    if (id.length === 0) throw invalidRequest(`${where}.id must not be empty`);
    if (ids.has(id)) throw invalidRequest(`${where}.id duplicates the id of an earlier macro`);
    ids.add(id);
    if (typeof expansion !== 'string') throw invalidRequest(`${where}.expansion_text must be a string`);
    if (codePointLength(expansion) > MACRO_LIMITS.maxExpansionChars) {
      throw payloadTooLarge(`${where}.expansion_text exceeds ${MACRO_LIMITS.maxExpansionChars} characters`);
    }
    if (!Array.isArray(examples)) throw invalidRequest(`${where}.examples must be an array of strings`);
    if (examples.length === 0) throw invalidRequest(`${where}.examples must not be empty`);
    if (examples.length > MACRO_LIMITS.maxExamplesPerMacro) {
      throw payloadTooLarge(`${where}.examples exceeds ${MACRO_LIMITS.maxExamplesPerMacro} entries`);
    }
    examples.forEach((example: unknown, e) => {
      if (typeof example !== 'string') throw invalidRequest(`${where}.examples[${e}] must be a string`);
      if (example.trim().length === 0) throw invalidRequest(`${where}.examples[${e}] must not be empty`);
      if (codePointLength(example) > MACRO_LIMITS.maxExampleChars) {
        throw payloadTooLarge(`${where}.examples[${e}] exceeds ${MACRO_LIMITS.maxExampleChars} characters`);
      }
      if (!HAS_WORD.test(example)) throw invalidRequest(`${where}.examples[${e}] must contain a letter or digit`);
    });
  });
  return minConfidence ?? MACRO_LIMITS.defaultMinConfidence;
}
