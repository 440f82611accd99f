/**
 * A small markdown reader for the notes Clindoc writes (headings, paragraphs, bullet and
 * numbered lists, bold, italic, code, rules). It produces a tree, never HTML, so the renderer
 * draws notes with React elements and nothing a note contains can run as markup. Export to
 * plain text and PDF uses the same tree.
 */
export type Inline = { kind: 'text'; text: string } | { kind: 'strong'; children: Inline[] } | { kind: 'em'; children: Inline[] } | { kind: 'code'; text: string };

export type Block =
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'rule' };

/** Reads inline emphasis: `**strong**`, `__strong__`, `*em*`, `_em_`, `` `code` ``. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = (): void => {
    if (buf) out.push({ kind: 'text', text: buf });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_#\-+.!\[\]()]/.test(text[i + 1]!)) {
      buf += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong) {
      flush();
      out.push({ kind: 'strong', children: parseInline(strong[2]!) });
      i += strong[0].length;
      continue;
    }
    const em = /^(\*|_)(?=\S)([\s\S]*?\S)\1(?![*_])/.exec(rest);
    if (em && (ch === '*' || !/\w/.test(text[i - 1] ?? ''))) {
      flush();
      out.push({ kind: 'em', children: parseInline(em[2]!) });
      i += em[0].length;
      continue;
    }
    buf += ch;
    i++;
  }
  flush();
  return out;
}

/** Splits markdown into blocks. */
export function parseMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const endParagraph = (): void => {
    // Lines stay lines: a note's header (patient, birth date, service date) is one paragraph of
    // `**Label:** value` lines, and plain text must keep one item per line. HTML collapses the
    // newline to a space, so the on-screen view is unchanged.
    if (paragraph.length) blocks.push({ kind: 'paragraph', inlines: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  const endList = (): void => {
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = undefined;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) {
      endParagraph();
      endList();
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endParagraph();
      endList();
      blocks.push({ kind: 'rule' });
    } else if (heading) {
      endParagraph();
      endList();
      blocks.push({ kind: 'heading', level: heading[1]!.length, inlines: parseInline(heading[2]!) });
    } else if (bullet || numbered) {
      endParagraph();
      const ordered = Boolean(numbered && !bullet);
      if (list && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
    } else if (list && /^\s{2,}\S/.test(raw)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      endList();
      paragraph.push(line.trim());
    }
  }
  endParagraph();
  endList();
  return blocks;
}

/** The text of inlines without their marks. */
export function inlineText(inlines: Inline[]): string {
  return inlines.map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : inlineText(n.children))).join('');
}

/**
 * A note as plain text for an EHR field or a .txt file: headings in capitals, one list item per
 * line with its bullet or number, each line of a paragraph (header items) on its own line, no markup.
 */
export function markdownToPlainText(markdown: string): string {
  const parts: string[] = [];
  for (const b of parseMarkdown(markdown)) {
    if (b.kind === 'heading') parts.push(b.level <= 2 ? inlineText(b.inlines).toUpperCase() : inlineText(b.inlines));
    else if (b.kind === 'paragraph') parts.push(inlineText(b.inlines));
    else if (b.kind === 'list') parts.push(b.items.map((it, i) => `${b.ordered ? `${i + 1}.` : '-'} ${inlineText(it)}`).join('\n'));
    else parts.push('----------');
  }
  return parts.join('\n\n') + (parts.length ? '\n' : '');
}
