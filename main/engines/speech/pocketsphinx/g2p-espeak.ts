/**
 * Pronunciations for words missing from CMUdict (drug names, anatomy), made with espeak-ng's
 * letter-to-sound rules (`--ipa`) and mapped from IPA to the en-us model's ARPAbet phone set.
 */
import { execFileSync } from 'node:child_process';

// Longest symbols first so r-coloured vowels and diphthongs win over their parts.
const IPA_TO_ARPA: Array<[string, string]> = [
  ['aɪɚ', 'AY ER'], ['aʊɚ', 'AW ER'], ['ɑːɹ', 'AA R'], ['ɔːɹ', 'AO R'], ['oːɹ', 'AO R'], ['ɛɹ', 'EH R'],
  ['ɪɹ', 'IH R'], ['ʊɹ', 'UH R'], ['iə', 'IY AH'], ['aɪ', 'AY'], ['aʊ', 'AW'], ['eɪ', 'EY'], ['oʊ', 'OW'],
  ['ɔɪ', 'OY'], ['tʃ', 'CH'], ['dʒ', 'JH'], ['iː', 'IY'], ['uː', 'UW'], ['ɑː', 'AA'], ['ɔː', 'AO'],
  ['ɜː', 'ER'], ['oː', 'AO'], ['n̩', 'AH N'], ['l̩', 'AH L'], ['əl', 'AH L'],
  ['ɪ', 'IH'], ['i', 'IY'], ['ɛ', 'EH'], ['e', 'EH'], ['æ', 'AE'], ['a', 'AE'], ['ɑ', 'AA'], ['ɒ', 'AA'],
  ['ɔ', 'AO'], ['ʌ', 'AH'], ['ə', 'AH'], ['ɐ', 'AH'], ['ᵻ', 'IH'], ['ɚ', 'ER'], ['ɜ', 'ER'], ['ʊ', 'UH'],
  ['u', 'UW'], ['o', 'OW'], ['p', 'P'], ['b', 'B'], ['t', 'T'], ['d', 'D'], ['k', 'K'], ['ɡ', 'G'],
  ['g', 'G'], ['f', 'F'], ['v', 'V'], ['θ', 'TH'], ['ð', 'DH'], ['s', 'S'], ['z', 'Z'], ['ʃ', 'SH'],
  ['ʒ', 'ZH'], ['h', 'HH'], ['m', 'M'], ['n', 'N'], ['ŋ', 'NG'], ['l', 'L'], ['ɹ', 'R'], ['r', 'R'],
  ['w', 'W'], ['j', 'Y'], ['ɾ', 'T'], ['x', 'K'], ['ç', 'HH'],
];

/** Maps one espeak IPA transcription to ARPAbet phones; unknown symbols are skipped. */
export function ipaToArpabet(ipa: string): string[] {
  const s = ipa.replace(/[ˈˌ_\s‖|.ʔ]/g, '');
  const out: string[] = [];
  let i = 0;
  outer: while (i < s.length) {
    for (const [sym, arpa] of IPA_TO_ARPA) {
      if (s.startsWith(sym, i)) {
        out.push(...arpa.split(' '));
        i += sym.length;
        continue outer;
      }
    }
    i += 1; // length marks and symbols without an en-us counterpart
  }
  return out;
}

/**
 * Pronounces `words` (lowercase, letters and apostrophes) with espeak-ng in batches; words it
 * cannot pronounce are left out of the map.
 */
export function pronounce(words: string[], espeakPath = 'espeak-ng'): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const batch = 500;
  for (let i = 0; i < words.length; i += batch) {
    const part = words.slice(i, i + batch);
    // One word per line; espeak answers one line per input line.
    const text = execFileSync(espeakPath, ['-q', '-v', 'en-us', '--ipa', '--sep=_'], {
      input: part.join('\n') + '\n',
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
    if (lines.length !== part.length) {
      // Misaligned output (espeak merged lines): fall back to one call per word.
      for (const w of part) {
        const ipa = execFileSync(espeakPath, ['-q', '-v', 'en-us', '--ipa', '--sep=_', w], { encoding: 'utf8' });
        const phones = ipaToArpabet(ipa.trim());
        if (phones.length > 0) out.set(w, phones);
      }
      continue;
    }
    part.forEach((w, j) => {
      const phones = ipaToArpabet(lines[j]!);
      if (phones.length > 0) out.set(w, phones);
    });
  }
  return out;
}
