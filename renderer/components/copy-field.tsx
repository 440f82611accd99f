import { useId, useState } from 'react';

/** A read-only value with a Copy button (account id, API key, base URL). */
export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const id = useId();
  const [shown, setShown] = useState(!secret);
  const [copied, setCopied] = useState(false);
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={value} type={shown ? 'text' : 'password'} />
        {secret && <button type="button" onClick={() => setShown(!shown)} aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}>{shown ? 'Hide' : 'Show'}</button>}
        <button
          type="button"
          aria-label={`Copy ${label}`}
          onClick={() => void navigator.clipboard?.writeText(value).then(() => { setCopied(true); setTimeout(() => setCopied(false), 2000); })}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
