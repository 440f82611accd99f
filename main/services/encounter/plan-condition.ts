/**
 * Orders that wait on something: "if it doesn't improve, we'll do an epidural", "once we get the
 * x-ray back we'll decide about physical therapy", "we may need to consider a capsule endoscopy".
 * Such an item is not ordered today; it keeps its condition so the note says "Consider epidural
 * injection if symptoms do not improve" instead of writing it as a new order.
 */
import type { PlanItem } from './types.js';

const IF = /(?<!\b(?:see|check|know|tell|determine|find out|sure|ask|wonder|look|even|as|unsure)\s)\b(?:if|unless|in case|should (?:it|this|that|things|the pain|symptoms|you))\s+([^,.;?]{3,90}?)(?=\s*,|\s+(?:then|we(?:'ll|'d|'re| will| would| can| could| may| might| should| are)|i(?:'ll|'d|'m| will| would| can| may| might| am| want| need| think)|let's|please|call|you(?:'ll| will| can| should| may| might)|that(?:'s| is| would)|it(?:'s| is| would| might))\b|[.;?]|$)/i;
const DEFERRED = /\b(?:(?:we|i) (?:may|might|could) (?:need to |want to |have to |end up )?|(?:we(?:'ll| will)|i(?:'ll| will)) (?:consider|decide|think about|talk about|discuss)|(?:will|would) be considered|down the road|in the future|at some point|depending on|once (?:we|the|your|you|it|that)\b|after (?:we|the|your) (?:get|see|review|have)\b|we(?:'ll| will) see (?:if|how|whether)|(?:wait|hold off) (?:on|until|to see))/i;
// "See the x-ray results before we refer you to physical therapy": only what follows "before" waits.
const BEFORE = /\bbefore (?:we|i) (?:\w+ )?(?:refer|order|start|do|send|schedule|consider|get|try|put)\b/i;
// A condition an order waits on is about the course or a result ("if it doesn't improve", "if the x-ray
// shows a fracture"); "if you have any questions, call me" is a precaution, not a condition on an order.
export const UNMET = /\b(?:not|n't|no|never|still|worse\w*|persist\w*|continu\w*|abnormal|positive|negative|elevated|high|low|fail\w*|improv\w*|better|help\w*|work\w*|shows?|reveals?|comes? back|results?|flares?|recur\w*|returns?|gets? bigger|grow\w*|spread\w*)\b/i;
const OFFER = /^(?:you|he|she) (?:think|want|would like|'d like|wish|prefer|feel like|are interested|decide|choose)\b/i;
// Person words that make a condition speech rather than a note's words.
const SPEECH = /\b(?:i|me|my|we|us|our|let's)\b/i;

/** Third person for a short condition ("it doesn't get better" -> "it does not get better"). */
function written(condition: string): string | undefined {
  const t = condition.trim().replace(/\s+n't\b/gi, "n't")
    .replace(/\b(doesn't|don't|isn't|aren't|won't|can't)\b/gi, (m) => ({ "doesn't": 'does not', "don't": 'do not', "isn't": 'is not', "aren't": 'are not', "won't": 'will not', "can't": 'cannot' } as Record<string, string>)[m.toLowerCase()]!)
    .replace(/\byou(?:'re| are)\b/gi, 'the patient is').replace(/\byou(?:'ve| have)\b/gi, 'the patient has').replace(/\byou do not\b/gi, 'the patient does not')
    .replace(/\byour\b/gi, 'the').replace(/\byou\b/gi, 'the patient').replace(/\s+/g, ' ');
  if (SPEECH.test(t) || t.split(' ').length > 14 || t.split(' ').length < 2 || /\b(?:if|unless)\b/i.test(t)) return undefined;
  return `if ${t}`;
}

/** Where the clause's "if ..." condition stands, so its own negation is not read as the order's. */
export function conditionSpan(clause: string): { start: number; end: number } | undefined {
  const m = IF.exec(clause);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}

const FIRM = /\b(?:going to|gonna|we(?:'ll| will| are)|i(?:'ll| will| am)|let's|today)\b/i;

/**
 * The condition the order at `at` waits on, if any: "if A, we'll do B" and "B if A" make B wait,
 * "let's get an x-ray, and if it shows a fracture we'll refer you" does not make the x-ray wait.
 * A deferral ("we may need to", "down the road") counts when it is said of this order, with no
 * firm order between them.
 */
export function conditionOf(clause: string, at = 0): string | undefined {
  const span = conditionSpan(clause);
  if (span) {
    const m = IF.exec(clause)!;
    const consequentFollows = /\S/.test(clause.slice(span.end).replace(/^[\s,]*(?:then\s*)?/, '').replace(/[.!?]+\s*$/, ''));
    const between = clause.slice(at, span.start);
    const applies = at >= span.end || (at < span.start && !consequentFollows && !/[.;?!]/.test(between) && !/\b(?:and|then|but|so)\s*$/i.test(between) && between.split(/\s+/).length <= 8);
    if (applies && UNMET.test(m[1]!)) return written(m[1]!) ?? 'if needed';
    // "Refer you to psychotherapy, if you think that would be helpful": an offer the patient decides on.
    if (OFFER.test(m[1]!) && (applies || (at < span.start && !/[.;?!]/.test(between)))) return 'if the patient wishes';
  }
  const before = clause.slice(Math.max(0, at - 80), at);
  const deferred = [...before.matchAll(new RegExp(DEFERRED.source, 'gi'))].pop();
  if (deferred && !FIRM.test(before.slice(deferred.index! + deferred[0].length))) return 'if needed';
  const waits = [...before.matchAll(new RegExp(BEFORE.source, 'gi'))].pop();
  if (waits && !/[.;]/.test(before.slice(waits.index!))) return 'if needed';
  return DEFERRED.test(clause.slice(at, at + 60)) && !FIRM.test(clause.slice(at, at + 60)) ? 'if needed' : undefined;
}

/** A condition left open at the end of a sentence ("... and if it shows a fracture."), written, if any. */
export function danglingCondition(sentence: string): string | undefined {
  const span = conditionSpan(sentence);
  if (!span || /\S/.test(sentence.slice(span.end).replace(/[.!?,\s]+$/, ''))) return undefined;
  const m = IF.exec(sentence)!;
  return UNMET.test(m[1]!) ? written(m[1]!) : undefined;
}

/** The item with its condition, for orders (not counselling or follow-up, which carry their own "if"). */
export function withCondition(item: PlanItem, clause: string, at?: number): PlanItem {
  if (item.kind === 'education' || item.kind === 'follow-up' || item.condition) return item;
  const condition = conditionOf(clause, at ?? 0);
  return condition ? { ...item, condition } : item;
}
