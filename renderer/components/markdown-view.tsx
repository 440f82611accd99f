import type { ReactNode, Ref } from 'react';
import { parseMarkdown, type Inline } from '../../shared/export/markdown.js';
import './note-view.css';

/** Where a mark opens and closes in the text handed to the parser (private-use code points, never in a note). */
const OPEN = '\uE000';
const CLOSE = '\uE001';

/** A span of the markdown to highlight, in code points of the markdown text (as the coding API counts). */
export interface MarkSpan { start_char: number; end_char: number }

/**
 * The markdown with an OPEN and a CLOSE character around each span, so the marks go through the
 * same parser as the text and land inside the formatted note (a heading, a list item) instead of
 * the note being drawn as its raw markdown. Spans are trimmed of white space, so a mark never
 * starts or ends a line of its own (which the parser would read as an extra paragraph).
 */
function withMarks(markdown: string, spans: readonly MarkSpan[]): string {
  const points = Array.from(markdown);
  const kept: [number, number][] = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start_char - b.start_char)) {
    let start = Math.max(at, Math.min(s.start_char, points.length));
    let end = Math.max(start, Math.min(s.end_char, points.length));
    while (start < end && /\s/.test(points[start]!)) start++;
    while (end > start && /\s/.test(points[end - 1]!)) end--;
    if (end <= start) continue;
    kept.push([start, end]);
    at = end;
  }
  for (const [start, end] of kept.reverse()) {
    points.splice(end, 0, CLOSE);
    points.splice(start, 0, OPEN);
  }
  return points.join('');
}

/**
 * A note's markdown drawn as React elements (never as HTML, so note text cannot inject markup).
 * With `ref` the article can take the focus (tabIndex -1), so a finished note can be handed it.
 * `marks` highlights spans (code evidence) in place: the same blocks, the same line breaks, only a
 * background, so showing or hiding evidence moves nothing on the page.
 */
export function MarkdownView({ markdown, label, ref, marks, testId }: {
  markdown: string; label: string; ref?: Ref<HTMLElement>; marks?: readonly MarkSpan[]; testId?: string;
}) {
  const blocks = parseMarkdown(marks?.length ? withMarks(markdown, marks) : markdown);
  // Rendering walks the note in document order, so one flag says whether the text is inside a mark
  // (a span may run over emphasis or from one list item into the next).
  let open = false;
  const text = (value: string, key: string): ReactNode[] => {
    if (!marks?.length) return [value];
    const out: ReactNode[] = [];
    value.split(/([\uE000\uE001])/).forEach((part, i) => {
      if (part === OPEN) open = true;
      else if (part === CLOSE) open = false;
      else if (part) out.push(open ? <mark key={`${key}-m${i}`} className="evidence">{part}</mark> : part);
    });
    return out;
  };
  const inlines = (nodes: Inline[], key = 'i'): ReactNode[] =>
    nodes.flatMap((n, i): ReactNode[] => {
      const k = `${key}-${i}`;
      if (n.kind === 'text') return text(n.text, k);
      if (n.kind === 'code') return [<code key={k}>{text(n.text, k)}</code>];
      if (n.kind === 'strong') return [<strong key={k}>{inlines(n.children, k)}</strong>];
      return [<em key={k}>{inlines(n.children, k)}</em>];
    });
  return (
    <article className="markdown" aria-label={label} {...(testId ? { 'data-testid': testId } : {})} {...(ref ? { ref, tabIndex: -1 } : {})}>
      {blocks.map((b, i) => {
        if (b.kind === 'heading') {
          // Note headings sit under the page's own h1/h2, so they start at h3.
          const level = Math.min(6, b.level + 2);
          const Tag = `h${level}` as 'h3';
          return <Tag key={i}>{inlines(b.inlines, `b${i}`)}</Tag>;
        }
        if (b.kind === 'paragraph') return <p key={i}>{inlines(b.inlines, `b${i}`)}</p>;
        if (b.kind === 'rule') return <hr key={i} />;
        const items = b.items.map((it, j) => <li key={j}>{inlines(it, `b${i}-${j}`)}</li>);
        return b.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
      })}
    </article>
  );
}
