/**
 * The text normaliser shared by the clinical LM builder and the WER script, so that the language
 * model, the reference transcripts and the hypotheses are compared in one spelling:
 * lowercase; digits spoken as words ("120" -> "one hundred twenty", "1.5" -> "one point five");
 * "%" -> "percent", "/" -> "over", "&" -> "and"; hyphens split words; every other punctuation mark
 * removed except apostrophes inside words; whitespace collapsed.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Spells a non-negative integer below one million. */
export function numberToWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? ` ${ONES[n % 10]}` : '');
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${numberToWords(n % 100)}` : ''}`;
  if (n < 1_000_000) return `${numberToWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${numberToWords(n % 1000)}` : ''}`;
  return String(n).split('').map((d) => ONES[Number(d)]).join(' ');
}

function spellNumber(token: string): string {
  const [int, frac] = token.split('.');
  const intWords = int!.length > 6 ? int!.split('').map((d) => ONES[Number(d)]).join(' ') : numberToWords(Number(int));
  return frac ? `${intWords} point ${frac.split('').map((d) => ONES[Number(d)]).join(' ')}` : intWords;
}

/** Normalises text to lowercase words (see the module comment for the rules). */
export function normalizeWords(text: string): string[] {
  const t = text
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/(\d+(?:\.\d+)?)/g, ' $1 ')
    .replace(/%/g, ' percent ')
    .replace(/&/g, ' and ')
    .replace(/\//g, ' over ')
    .replace(/[-–—]/g, ' ');
  const out: string[] = [];
  for (const raw of t.split(/\s+/)) {
    if (!raw) continue;
    if (/^\d+(\.\d+)?$/.test(raw)) {
      out.push(...spellNumber(raw).split(' '));
      continue;
    }
    const w = raw.replace(/[^a-z']/g, '').replace(/^'+|'+$/g, '');
    if (w) out.push(w);
  }
  return out;
}

/** Splits running text into sentences (., ?, !, ; or line breaks) of normalised words. */
export function normalizeSentences(text: string): string[][] {
  return text
    .replace(/\[(doctor|patient|patient_guest|doctor_guest|speaker|guest)[^\]]*\]/gi, '\n')
    .split(/(?<!\d)[.?!;:](?!\d)|\n+/)
    .map(normalizeWords)
    .filter((s) => s.length > 0);
}
