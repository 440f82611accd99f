import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createMacroService, type MacroDefinition, type MacroDetectResult } from '../../main/services/macros/index.js';

const MACROS: MacroDefinition[] = [
  { id: 'nce', examples: ['normal chest exam'], expansion_text: 'CHEST NORMAL' },
  { id: 'ce', examples: ['chest exam'], expansion_text: 'CE' },
  { id: 'exabd', examples: ['exam of abdomen benign'], expansion_text: 'ABD BENIGN' },
  { id: 'fuprn', examples: ['follow up as needed', 'follow-up PRN'], expansion_text: 'F/U PRN 🩺' },
  { id: 'zh', examples: ['胸部检查正常'], expansion_text: '胸部：正常' },
];

const service = createMacroService();

/** Checks the contract every answer must keep, whatever the text. */
function expectConsistent(text: string, result: MacroDetectResult, macros: MacroDefinition[]): void {
  const points = Array.from(text);
  let rebuilt = '';
  let at = 0;
  for (const d of result.detections) {
    const { start_char: start, end_char: end, text: spanText } = d.text_span;
    expect(Number.isInteger(start) && Number.isInteger(end)).toBe(true);
    expect(start).toBeGreaterThanOrEqual(at);
    expect(end).toBeGreaterThan(start);
    expect(end).toBeLessThanOrEqual(points.length);
    expect(spanText).toBe(points.slice(start, end).join(''));
    expect(d.confidence).toBeGreaterThanOrEqual(0);
    expect(d.confidence).toBeLessThanOrEqual(1);
    const macro = macros.find((m) => m.id === d.macro_id);
    expect(macro).toBeDefined();
    rebuilt += points.slice(at, start).join('') + (macro?.expansion_text ?? '');
    at = end;
  }
  rebuilt += points.slice(at).join('');
  expect(result.expanded_text).toBe(rebuilt);
}

describe('spans and expansion', () => {
  it('counts offsets in code points, so emoji and astral characters before a macro do not shift it', () => {
    const text = '😀𝔘 patient 👩‍⚕️: normal chest exam, then 🩺 follow-up PRN.';
    const result = service.detect({ text, macros: MACROS });
    expect(result.detections.map((d) => d.macro_id)).toEqual(['nce', 'fuprn']);
    const first = result.detections[0].text_span;
    expect(first.text).toBe('normal chest exam');
    expect(first.start_char).toBe(Array.from(text).indexOf('n', 12));
    expectConsistent(text, result, MACROS);
    expect(result.expanded_text).toBe('😀𝔘 patient 👩‍⚕️: CHEST NORMAL, then 🩺 F/U PRN 🩺.');
  });

  it('leaves every byte outside the detected spans unchanged', () => {
    const text = '  Line one\r\n\tnormal   chest\u00a0exam…\u200b tail  \n';
    const result = service.detect({ text, macros: MACROS });
    expect(result.detections).toHaveLength(1);
    expect(result.expanded_text).toBe('  Line one\r\n\tCHEST NORMAL…\u200b tail  \n');
  });

  it('finds macros in text without spaces (Chinese)', () => {
    const text = '患者胸部检查正常，无不适。';
    const result = service.detect({ text, macros: MACROS });
    expect(result.detections.map((d) => [d.macro_id, d.text_span.start_char, d.text_span.end_char])).toEqual([['zh', 2, 8]]);
    expect(result.expanded_text).toBe('患者胸部：正常，无不适。');
  });

  it('lets the longer macro win when one contains another, and never returns overlapping spans', () => {
    const exact = service.detect({ text: 'normal chest exam', macros: MACROS });
    expect(exact.detections.map((d) => d.macro_id)).toEqual(['nce']);
    const noisy = service.detect({ text: 'nromal chest exam', macros: MACROS });
    expect(noisy.detections.map((d) => d.macro_id)).toEqual(['nce']);
    // "chest exam" and "exam of abdomen benign" share the word "exam": one span only.
    const shared = service.detect({ text: 'chest exam of abdomen benign', macros: MACROS });
    expect(shared.detections.map((d) => d.macro_id)).toEqual(['exabd']);
    expectConsistent('chest exam of abdomen benign', shared, MACROS);
  });

  it('breaks ties by the macro listed first', () => {
    const twins: MacroDefinition[] = [
      { id: 'first', examples: ['vital signs reviewed'], expansion_text: 'A' },
      { id: 'second', examples: ['vital signs reviewed'], expansion_text: 'B' },
    ];
    expect(service.detect({ text: 'vital signs reviewed', macros: twins }).detections.map((d) => d.macro_id)).toEqual(['first']);
    expect(service.detect({ text: 'vital signs reviewed', macros: [...twins].reverse() }).detections.map((d) => d.macro_id)).toEqual(['second']);
  });

  it('answers empty, whitespace-only and punctuation-only texts without detections', () => {
    for (const text of ['', ' ', '\n\n', '...!?', '\ud800 lone surrogate \udc00']) {
      const result = service.detect({ text, macros: MACROS });
      expect(result).toEqual({ detections: [], expanded_text: text, skipped: [] });
    }
  });

  it('keeps the contract on arbitrary text built from macro words, noise and any Unicode', () => {
    const piece = fc.oneof(
      fc.constantFrom('normal', 'chest', 'exam', 'of', 'abdomen', 'benign', 'follow', 'up', 'as', 'needed', 'PRN', 'uh', 'insert'),
      fc.constantFrom(' ', ', ', '-', '. ', '\n', '😀', '胸部检查正常', '\ud83d', 'é', 'ß'),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expectConsistent(text, service.detect({ text, macros: MACROS, min_confidence: 0 }), MACROS);
      }),
      { numRuns: 150 },
    );
  });
});
