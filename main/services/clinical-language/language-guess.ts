/**
 * Which of the eight note languages a text is written in, from its script (Cyrillic, Chinese)
 * and its most frequent function words. Enough to tell a Spanish transcript from an English one
 * so a writer knows which passages it must mark as untranslated; undefined when unsure.
 */
import type { NoteLanguage } from '../../../shared/languages.js';

const FUNCTION_WORDS: Record<Exclude<NoteLanguage, 'ru' | 'zh'>, ReadonlySet<string>> = {
  en: new Set('the and you i to a of is it that have for my your with in this on do was what are be not any so'.split(' ')),
  es: new Set('el la los las de que y en un una es por con para no me mi su se lo le tengo usted está qué cómo hace'.split(' ')),
  fr: new Set('le la les de des et en un une est que je vous il ne pas pour avec mon votre au du ce qui depuis avez'.split(' ')),
  de: new Set('der die das und ich sie ist nicht ein eine mit zu den von haben es auf für seit wie was mir mein ihr'.split(' ')),
  it: new Set('il lo la gli le di e che un una è non per con mi ho ha del della da come sono lei suo cosa'.split(' ')),
  pt: new Set('o a os as de que e em um uma é não para com me meu você tem do da dos está como sua isso há'.split(' ')),
};

/** The language of `text`, or undefined when no language stands out. */
export function guessLanguage(text: string): NoteLanguage | undefined {
  const sample = text.slice(0, 4000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return undefined;
  if ((sample.match(/\p{Script=Han}/gu)?.length ?? 0) / letters > 0.3) return 'zh';
  if ((sample.match(/\p{Script=Cyrillic}/gu)?.length ?? 0) / letters > 0.3) return 'ru';
  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: NoteLanguage | undefined;
  let bestShare = 0;
  for (const [language, set] of Object.entries(FUNCTION_WORDS) as [NoteLanguage, ReadonlySet<string>][]) {
    const share = words.filter((w) => set.has(w)).length / words.length;
    if (share > bestShare) {
      bestShare = share;
      best = language;
    }
  }
  return bestShare > 0.12 ? best : undefined;
}
