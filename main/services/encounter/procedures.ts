/**
 * Procedures done in the visit: an injection or aspiration the clinician performs now ("attempted to inject 1 cc of
 * celestone with a half a cc of lidocaine", "now I'm injecting 80 mg of triamcinolone into the right knee"). They are
 * written as the procedure with what was injected and where, never as a prescription to start nor as a medication the
 * patient takes. An injection only offered, weighed or planned for later stays with the plan's ordinary reading.
 */
import { BODY_SITES, laterality } from './attributes.js';
import { evidenceOf, type Said } from './said.js';
import type { PlanItem } from './types.js';

// Said as done now or being done: "I'm going to inject", "I'll now aspirate", "attempted to inject", "we injected".
// Or dictated as a procedure note: "1 mL of lidocaine was injected", "the knee was prepped in the usual sterile fashion",
// "20 cc of fluid was aspirated", "let's go ahead and inject".
const DONE_NOW = /\b(?:(?:was|were|is|are) (?:then )?(?:injected|aspirated|drained|withdrawn|removed)\b|prepped (?:and draped )?in (?:the |a )?(?:usual |standard )?sterile fashion|(?:let's|let me|(?:i|we)(?:'m| am|'re| are) (?:going to|gonna)) go ahead and (?:inject|aspirate|drain|do (?:the|an|that) (?:injection|aspiration))|(?:i|we)(?:'m| am|'re| are)\s+(?:now\s+|also\s+)?(?:going to\s+|gonna\s+)?(?:inject|aspirat|drain)\w*|(?:i|we)(?:'ll| will)\s+(?:now\s+|also\s+|then\s+)?(?:inject|aspirate|drain)\b|(?:attempted|proceeded|went ahead and|went ahead) to (?:inject|aspirate)|(?:attempted|proceeded) (?:with )?(?:the |an? )?(?:second )?(?:injection|aspiration)|(?:i|we) (?:injected|aspirated|drained)|(?:attempted|performed|administered|completed)\b[^.;]{0,40}\b(?:injection|aspiration|inject)|(?:i|we)(?:'m| am|'re| are) (?:using|injecting) (?:an? |the )?\d*\.?\d*\s*(?:cc|ml)\b)/i;
// The sentence must be about an injection or aspiration: "I'm giving you 875 mg of augmentin" is a prescription.
const PROCEDURE_WORD = /\b(?:inject\w*|aspirat\w*|drain\w*|prepped|sterile fashion|procedure)\b/i;
// Done another day or by someone else, or to be done later: "we injected your knee back in March", "Dr. Smith performed
// an injection last month", "at your next visit", "if it's not better".
const ANOTHER_TIME = /\b(?:ago|last (?:week|month|year|time|visit|fall|spring|summer|winter)|back in|previously|prior|before|in the past|next (?:visit|week|time|month|appointment)|at your next|in (?:a|one|two|three|a few|a couple of) (?:weeks?|months?)|later|if|unless|dr\.?|doctor|the (?:surgeon|specialist|orthopedist|orthopedic|er|emergency)|they|he|she)\b|\bin (?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
// Offered, weighed, conditional, or another day: "we could try a cortisone injection", "if it doesn't improve".
// Or explained ("what I do is I will inject the corticosteroid into the spine", "I'm recommending a spinal injection").
const NOT_NOW = /\b(?:if|could|can try|consider|would|might|may|risks?|should|option|next time|in the future|schedul\w*|another|offered|wouldn't|didn't|recommend\w*|suggest\w*|what (?:i|we) do|typically|usually|generally|normally|explain\w*|means|called|that's where)\b/i;
// "1 cc of celestone", "a half a cc of lidocaine", "80 mg of triamcinolone", "kenalog 40 mg".
const AMOUNT_OF = /\b(\d+(?:\.\d+)?|a half(?: a)?|half an?|an?|one)\s*(ccs?|ml|milliliters?|mg|milligrams?)\s+of\s+(?:the\s+)?([a-z][a-z-]{3,})/gi;
const NAMED_AMOUNT = /\b(lidocaine|xylocaine|bupivacaine|marcaine|triamcinolone|kenalog|depo-?medrol|methylprednisolone|celestone|betamethasone|dexamethasone|cortisone)\s+(\d+(?:\.\d+)?)\s*(ccs?|ml|milliliters?|mg|milligrams?)\b/gi;
const SITE = new RegExp(String.raw`\b(?:into|in) (?:the |your |his |her |that )?((?:(?:left|right)\s+)?(?:[a-z]+\s+)?(?:${[...BODY_SITES, 'joint', 'bursa', 'tendon sheath', 'subacromial space', 'spine'].join('|')}))\b`, 'i');
// "Aspirate the knee", "inject your left shoulder": the part named after the verb.
const SITE_DONE = new RegExp(String.raw`\b(?:aspirat\w*|inject\w*|drain\w*)\s+(?:the |your |his |her |that )?((?:(?:left|right)\s+)?(?:${BODY_SITES.join('|')}))\b`, 'i');
/** "We injected your knee with 40 mg of kenalog back in March": a drug named in a sentence about an injection is the injection's. */
export const INJECTED_IN = /\binject(?:ed|ing|ion|ions)?\b|\bshot of\b/i;
const FLUID = /^(?:the )?(?:fluid|aspirate)\s+(?:is|was|looks|looked|appears|came out)\s+([a-z -]{3,40}?)\s*[.,]?$/i;

// Brands of the drugs injected in the office, by their generic name, so one drug named both ways is written once.
const GENERIC: Readonly<Record<string, string>> = { celestone: 'betamethasone', kenalog: 'triamcinolone', 'depo-medrol': 'methylprednisolone', depomedrol: 'methylprednisolone', xylocaine: 'lidocaine', marcaine: 'bupivacaine', sensorcaine: 'bupivacaine', decadron: 'dexamethasone' };
// "celestone 1 mL" and "betamethasone 1 mL" are one drug at one amount; the name first said is written.
const sameDrug = (a: string, b: string): boolean => a.replace(/^\S+/, (n) => GENERIC[n] ?? n) === b.replace(/^\S+/, (n) => GENERIC[n] ?? n);
const addDrug = (drugs: string[], d: string): void => { if (!drugs.some((x) => sameDrug(x, d))) drugs.push(d); };
const listed = (items: string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
// "30 cc of straw colored fluid": what was drawn off, not a drug.
const NOT_A_DRUG = /^(?:fluid|straw|clear|bloody|blood|yellow|serous|cloudy|pus|synovial|turbid|pink|red)/i;
const FLUID_DRAWN = /\b(\d+(?:\.\d+)?)\s*(?:cc|ccs|ml|milliliters?)\s+of\s+((?:[a-z-]+\s+){0,3}?)fluid\b/i;
const unitOf = (u: string): string => (/^(?:cc|ml|milli)/i.test(u) ? 'mL' : 'mg');
const amountOf = (n: string): string => (/half/i.test(n) ? '0.5' : /^(?:an?|one)$/i.test(n) ? '1' : n);

/** What one sentence says was injected: each drug with its amount, as written in a note ("celestone 1 mL"). */
function injected(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(AMOUNT_OF)) if (!NOT_A_DRUG.test(m[3]!) && !/^\s*(?:[a-z-]+\s+){0,2}fluid\b/i.test(text.slice(m.index + m[0].length))) out.push(`${m[3]!.toLowerCase()} ${amountOf(m[1]!)} ${unitOf(m[2]!)}`);
  for (const m of text.matchAll(NAMED_AMOUNT)) out.push(`${m[1]!.toLowerCase()} ${m[2]} ${unitOf(m[3]!)}`);
  return [...new Set(out)];
}

/** True when the sentence tells of an injection or aspiration done in this visit. */
export function isDoneProcedure(text: string): boolean {
  const now = DONE_NOW.exec(text);
  return now !== null && PROCEDURE_WORD.test(text) && !NOT_NOW.test(text.slice(0, now.index + now[0].length)) && !ANOTHER_TIME.test(text);
}

/**
 * The injections and aspirations done in the visit, one item each, from the clinician's sentences in any phase (a
 * procedure is often done during the exam). The drugs and sites said across a few sentences of one procedure join it.
 */
export function readProcedures(said: readonly Said[]): { items: PlanItem[]; used: Set<number> } {
  const items: PlanItem[] = [];
  const used = new Set<number>();
  type Open = { item: PlanItem; drugs: string[]; site?: string; fluid?: string; at: number };
  const done: Open[] = [];
  let open: Open | undefined;
  const close = (): void => {
    if (!open) return;
    // The same procedure told again later ("the plan is a steroid injection today" ... "attempted to inject 1 cc of
    // celestone") is one procedure: what each telling adds joins the first.
    const same = done.find((d) => d.item.target === open!.item.target && (!d.site || !open!.site || d.site === open!.site));
    if (same) {
      for (const d of open.drugs) addDrug(same.drugs, d);
      same.site ??= open.site;
      same.fluid ??= open.fluid;
      same.item.laterality ??= open.item.laterality;
      same.item.evidence.push(...open.item.evidence);
    } else done.push(open);
    open = undefined;
  };
  const write = ({ item, drugs, site, fluid }: Open): void => {
    const where = site ? ` of the ${site.toLowerCase()}` : '';
    item.text = item.target === 'injection'
      ? `Injection${where}${drugs.length ? ` with ${listed(drugs)}` : ''}`
      : `Aspiration${where}${fluid ? `; fluid ${fluid}` : ''}${drugs.length ? `; injection with ${listed(drugs)}` : ''}`;
    items.push(item);
  };
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.question || s.unclearNumber) continue;
    const fluid = open ? FLUID.exec(s.text.trim()) : null;
    if (open && fluid && s.i - open.at <= 3) {
      open.fluid = fluid[1]!.trim().replace(/\s+/g, '-');
      open.item.evidence.push(...evidenceOf(s));
      used.add(s.i);
      continue;
    }
    if (!isDoneProcedure(s.text)) {
      if (open && s.i - open.at > 4) close();
      continue;
    }
    // "I'll inject 1 mL of lidocaine, and then aspirate the fluid": an aspiration named anywhere in the sentence makes it one.
    const kind = /\baspirat\w*|\bdrain (?:the|that|it)\b/i.test(s.text) ? 'aspiration' : 'injection';
    const site = SITE.exec(s.text)?.[1] ?? SITE_DONE.exec(s.text)?.[1];
    const side = laterality(s.text);
    const drawn = FLUID_DRAWN.exec(s.text);
    const drawnText = drawn ? `${drawn[1]} mL${drawn[2]!.trim() ? `, ${drawn[2]!.trim().replace(/\s+colou?red$/i, '-colored').replace(/\s+tinged$/i, '-tinged')}` : ''}` : undefined;
    if (open && s.i - open.at <= 4) {
      open.fluid ??= drawnText;
      // One procedure told in several sentences: "I'll inject 1 mL of lidocaine, then aspirate" ... "now I'm injecting 80 mg".
      if (kind === 'aspiration') open.item.target = 'aspiration';
      for (const d of injected(s.text)) addDrug(open.drugs, d);
      // A site said with its side ("into the right knee") is more precise than one said before ("aspirate the knee").
      if (site && (!open.site || (/\b(?:left|right)\b/i.test(site) && !/\b(?:left|right)\b/i.test(open.site)))) open.site = site;
      if (side && !open.item.laterality) open.item.laterality = side;
      open.item.evidence.push(...evidenceOf(s));
      open.at = s.i;
    } else {
      close();
      open = { item: { kind: 'procedure', target: kind, ...(side ? { laterality: side } : {}), evidence: evidenceOf(s) }, drugs: injected(s.text), ...(site ? { site } : {}), ...(drawnText ? { fluid: drawnText } : {}), at: s.i };
    }
    used.add(s.i);
  }
  close();
  done.forEach(write);
  return { items, used };
}
