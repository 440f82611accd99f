import type { ReactNode } from 'react';

/** An error the user should read; announced by screen readers. */
export function ErrorMessage({ children, onDismiss }: { children: ReactNode; onDismiss?: () => void }) {
  return (
    <div className="message error" role="alert">
      <span>{children}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss message">
          Dismiss
        </button>
      )}
    </div>
  );
}

/** A polite status line (loading, progress). */
export function StatusMessage({ children }: { children: ReactNode }) {
  return (
    <div className="message status" role="status">
      {children}
    </div>
  );
}

/** What to do when a list or area is empty. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <p>{children}</p>}
    </div>
  );
}
