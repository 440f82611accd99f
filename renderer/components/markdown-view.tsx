import type { ReactNode, Ref } from 'react';
import { parseMarkdown, type Inline } from '../../shared/export/markdown.js';

function inlines(nodes: Inline[], key = 'i'): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}-${i}`;
    if (n.kind === 'text') return n.text;
    if (n.kind === 'code') return <code key={k}>{n.text}</code>;
    if (n.kind === 'strong') return <strong key={k}>{inlines(n.children, k)}</strong>;
    return <em key={k}>{inlines(n.children, k)}</em>;
  });
}

/**
 * A note's markdown drawn as React elements (never as HTML, so note text cannot inject markup).
 * With `ref` the article can take the focus (tabIndex -1), so a finished note can be handed it.
 */
export function MarkdownView({ markdown, label, ref }: { markdown: string; label: string; ref?: Ref<HTMLElement> }) {
  const blocks = parseMarkdown(markdown);
  return (
    <article className="markdown" aria-label={label} {...(ref ? { ref, tabIndex: -1 } : {})}>
      {blocks.map((b, i) => {
        if (b.kind === 'heading') {
          // Note headings sit under the page's own h1/h2, so they start at h3.
          const level = Math.min(6, b.level + 2);
          const Tag = `h${level}` as 'h3';
          return <Tag key={i}>{inlines(b.inlines)}</Tag>;
        }
        if (b.kind === 'paragraph') return <p key={i}>{inlines(b.inlines)}</p>;
        if (b.kind === 'rule') return <hr key={i} />;
        const items = b.items.map((it, j) => <li key={j}>{inlines(it)}</li>);
        return b.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
      })}
    </article>
  );
}
