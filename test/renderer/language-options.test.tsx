// @vitest-environment happy-dom
/**
 * Note languages are shown by name, not as codes (issue 27 point 10): the English name with the
 * language's own name beside it, while the value sent to the API stays the contract's code.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { languageLabel, LanguageOptions } from '../../renderer/components/language-options.js';
import { NOTE_LANGUAGES } from '../../shared/languages.js';

describe('note language options', () => {
  it('names each language in English and in itself, the code as the value', () => {
    expect(['en', 'de', 'es', 'zh'].map((l) => languageLabel(l as never))).toEqual(['English', 'German (Deutsch)', 'Spanish (español)', 'Chinese (中文)']);
    render(<label>Language<select><LanguageOptions /></select></label>);
    const options = screen.getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => o.value)).toEqual([...NOTE_LANGUAGES]);
    expect(options.every((o) => o.textContent !== o.value)).toBe(true);
  });
});
