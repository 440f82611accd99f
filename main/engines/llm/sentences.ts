/**
 * Sentence splitting for note text: not after titles and common clinical abbreviations
 * ("Mr. Jones", "Dr. Lee", "e.g.", "approx."), nor inside decimals ("2.5 mg").
 */
const ABBREVIATION = /\b(Mr|Mrs|Ms|Dr|Prof|St|vs|approx|e\.g|i\.e|etc|Jr|Sr|No|pt|yo|y\.o|b\.i\.d|t\.i\.d|q\.d|p\.o)\.$/i;

/** Splits prose into sentences, each keeping its end punctuation. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const piece of text.split(/(?<=[.!?。！？])\s+/)) {
    current = current ? `${current} ${piece}` : piece;
    if (!ABBREVIATION.test(current)) {
      if (current.trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
