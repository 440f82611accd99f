/**
 * A language model's text-to-JSON answer held to the text it was read from, with the note
 * writers' fidelity rules (services/notes/fidelity-*.ts): every string value is checked for
 * numbers, doses, units, frequencies, drugs, sides, negations, diagnoses and orders the text does
 * not give; every number value must be one the text states; a finding given as present or absent
 * (a boolean named for it, a `{name, present}` pair, or an item of a list of negatives) must not
 * be the opposite of what the text says. Register is not judged: a field value is data, not prose.
 *
 * What fails is listed with its JSON Pointer. A value nothing supports (an invented number, dose
 * or drug) is removed (null, or the item left out of its list) when the schema still holds
 * without it; otherwise, and for every contradiction, the value stays and is listed as marked.
 */
import { findIssues } from '../notes/fidelity-checks.js';
import type { FidelityKind } from '../notes/fidelity-issue.js';
import { checkOrders } from '../notes/fidelity-claims.js';
import { findingMentions } from '../notes/fidelity-facts.js';
import { indexSources, type SourceIndex } from '../notes/fidelity-sources.js';

/** One value of the answer the text does not support. */
export interface ExtractionFlag {
  /** JSON Pointer of the value in the answer (RFC 6901). */
  path: string;
  kind: FidelityKind;
  /** The value, or the part of it that failed, as the model gave it. */
  text: string;
  reason: string;
  /** `removed`: left out of `data`; `marked`: kept in `data`, listed here for review. */
  action: 'removed' | 'marked';
}

const ORDER_KEY = /order|plan|referr|imaging|tests?$|studies|workup/i;
const NEGATIVE_KEY = /negativ|denie|denial|absent|ruled.?out|excluded|without|^no_/i;
const PRESENT_KEY = /^(?:present|is_?present|reported|positive|has|affirmed|exists|presence)$/i;
const ABSENT_KEY = /^(?:denied|negated|absent|negative|is_?absent)$/i;
const pointer = (parts: readonly (string | number)[]): string => parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
const words = (key: string): string => key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();

interface Finding {
  path: string;
  term: string;
  text: string;
  present: boolean;
}

function contradiction(f: Finding, index: SourceIndex): ExtractionFlag | undefined {
  const said = index.findings(new Set([f.term])).get(f.term);
  if (!said) return f.present ? undefined : { path: f.path, kind: 'negation', text: f.text, reason: `${f.term} not discussed in the text`, action: 'marked' };
  if (f.present && said.negated > 0 && said.affirmed === 0) return { path: f.path, kind: 'negation', text: f.text, reason: `the text says no ${f.term}`, action: 'marked' };
  if (!f.present && said.affirmed > 0 && said.negated === 0) return { path: f.path, kind: 'negation', text: f.text, reason: `the text reports ${f.term}`, action: 'marked' };
  return undefined;
}

/** What a key names as present or absent ("has_fever" true: fever present; "denies_chest_pain" true: absent). */
function keyFinding(key: string, value: boolean, path: string): Finding | undefined {
  const phrase = words(key);
  const m = findingMentions(phrase, false).find((x) => x.polarity !== 'neutral');
  if (!m) return undefined;
  const affirmed = m.polarity === 'affirmed' && !NEGATIVE_KEY.test(key);
  return { path, term: m.term, text: `${key}: ${value}`, present: affirmed === value };
}

/**
 * Checks a model's answer against `text`. `valid` says whether a value still meets the caller's
 * schema; removals that would break it are not made.
 */
export function checkExtracted(value: unknown, text: string, valid: (v: unknown) => boolean): { data: unknown; review: ExtractionFlag[] } {
  const index = indexSources({ transcript: text });
  const review: ExtractionFlag[] = [];
  const removed = new Set<string>();

  const visit = (v: unknown, parts: (string | number)[], negative: boolean): void => {
    const path = pointer(parts);
    if (typeof v === 'string') {
      if (negative) {
        // An item of a list of negatives ("denied_symptoms": ["fever"]) says the finding is absent.
        for (const m of findingMentions(v, false).filter((x) => x.polarity === 'affirmed')) {
          const flag = contradiction({ path, term: m.term, text: v, present: false }, index);
          if (flag) review.push(flag);
        }
        return;
      }
      const issues = findIssues(v, index);
      // A value of a field named for orders is an order ("orders": ["MRI of the knee"]) without an order word.
      if (ORDER_KEY.test(String(parts.findLast((p) => typeof p === 'string') ?? ''))) {
        for (const o of checkOrders(v, index.texts, () => true, true)) if (!issues.some((i) => i.start === o.start)) issues.push(o);
      }
      for (const issue of issues) {
        if (issue.kind === 'register') continue;
        review.push({ path, kind: issue.kind, text: issue.text, reason: issue.reason, action: issue.action });
        if (issue.action === 'removed') removed.add(path);
      }
    } else if (typeof v === 'number') {
      if (index.number(v).level === 'none') {
        review.push({ path, kind: 'number', text: String(v), reason: 'number not in the text', action: 'removed' });
        removed.add(path);
      }
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...parts, i], negative));
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      // {"name": "fever", "present": true}: the pair states the finding; the name alone says nothing more.
      const flagKey = entries.find(([k, x]) => typeof x === 'boolean' && (PRESENT_KEY.test(k) || ABSENT_KEY.test(k)))?.[0];
      const name = flagKey ? entries.find(([, x]) => typeof x === 'string' && findingMentions(x, false).length > 0) : undefined;
      for (const [key, x] of entries) {
        const childPath = pointer([...parts, key]);
        if (typeof x === 'boolean') {
          const pair = name && key === flagKey ? findingMentions(name[1] as string, false)[0] : undefined;
          const finding = pair
            ? { path: childPath, term: pair.term, text: `${name![1] as string}: ${key} ${x}`, present: PRESENT_KEY.test(key) === x }
            : keyFinding(key, x, childPath);
          const flag = finding && contradiction(finding, index);
          if (flag) review.push(flag);
        } else if (!name || name[0] !== key) {
          visit(x, [...parts, key], negative || NEGATIVE_KEY.test(key));
        }
      }
    }
  };
  visit(value, [], false);
  if (removed.size === 0) return { data: value, review };

  const without = (v: unknown, parts: (string | number)[]): unknown => {
    if (Array.isArray(v)) return v.flatMap((item, i) => (removed.has(pointer([...parts, i])) ? [] : [without(item, [...parts, i])]));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, removed.has(pointer([...parts, k])) ? null : without(x, [...parts, k])]));
    }
    return v;
  };
  const data = without(value, []);
  if (valid(data)) return { data, review };
  // The schema needs the value: it stays, listed for review.
  return { data: value, review: review.map((f) => ({ ...f, action: 'marked' as const })) };
}
