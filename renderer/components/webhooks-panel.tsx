import { useState } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent, type WebhookView } from '../api/types.js';
import { CopyField } from './copy-field.js';
import { EmptyState, ErrorMessage } from './messages.js';
import { useApiRead } from './use-api-read.js';

/** The account's webhooks: list, register (the secret is shown once), delete. */
export function WebhooksPanel() {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [created, setCreated] = useState<WebhookView>();
  const [error, setError] = useState<string>();
  const { client, value: hooks, refresh: load } = useApiRead<WebhookView[]>((c) => c.listWebhooks(), (err) => setError((err as Error).message));
  if (!client) return null;
  return (
    <section aria-labelledby="webhooks-title">
      <h3 id="webhooks-title">Webhooks</h3>
      {hooks === undefined ? <p role="status">Loading webhooks…</p> : hooks.length === 0 ? (
        <EmptyState title="No webhooks.">Integrations can be told when a note or transcription is ready.</EmptyState>
      ) : (
        <ul className="plain-list" aria-label="Registered webhooks">
          {hooks.map((h) => (
            <li key={h.id}>
              <code>{h.url}</code> <span className="hint">{h.events.join(', ')}</span>{' '}
              <button type="button" className="link" aria-label={`Delete webhook ${h.url}`} onClick={() => void client.deleteWebhook(h.id).then(load, (e: Error) => setError(e.message))}>Delete</button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setError(undefined);
          client.createWebhook(url.trim(), events).then((w) => { setCreated(w); setUrl(''); setEvents([]); return load(); }, (err: Error) => setError(err.message));
        }}
      >
        <label htmlFor="webhook-url">Webhook URL</label>
        <input id="webhook-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://ehr.example.org/clindoc" required />
        <fieldset>
          <legend>Events (all when none are ticked)</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <label key={ev} className="check">
              <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))} />
              {ev}
            </label>
          ))}
        </fieldset>
        <button type="submit">Add webhook</button>
      </form>
      {created?.secret && <CopyField label="Signing secret of the new webhook (shown only now)" value={created.secret} secret />}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </section>
  );
}
