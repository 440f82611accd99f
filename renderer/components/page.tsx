import type { ReactNode } from 'react';

/**
 * One page of the app: a region named by its heading, so a screen reader announces which page the
 * physician is on and can jump between the page and its panels. `id` names the heading (`<id>-title`).
 */
export function Page({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section className={className ? `page ${className}` : 'page'} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}
