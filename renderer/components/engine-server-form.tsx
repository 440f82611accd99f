import { useState } from 'react';
import type { EngineSettings } from '../api/types.js';
import type { EngineSettingsBody } from '../../shared/api/schemas.js';

type Task = 'notes' | 'speech';
const TASK_LABEL: Record<Task, string> = { notes: 'Language-model server for notes', speech: 'Transcription server for dictation and recordings' };

/**
 * An OpenAI-compatible server for one task of this account: Clindoc tests it with a real call
 * before saving (a server that answers an error is refused, with what it answered), keeps the key
 * sealed and never shows it again, and uses the server from the next note or recording.
 */
function ServerForm({ task, settings, saving, choose }: {
  task: Task; settings: EngineSettings | undefined; saving: boolean; choose: (c: EngineSettingsBody) => void;
}) {
  const current = settings?.servers?.[task];
  const [url, setUrl] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const save = (): void => {
    choose({ servers: { [task]: { url: url.trim(), model: model.trim(), ...(apiKey ? { apiKey } : {}) } } });
    setApiKey('');
  };
  return (
    <fieldset className="grid" data-server-task={task}>
      <legend>{TASK_LABEL[task]} (this account)</legend>
      {current && (
        <p className="hint" data-testid={`server-${task}`}>
          In use: {current.url}, model {current.model}{current.hasKey ? ', key kept (sealed)' : ''}.{' '}
          <button type="button" disabled={saving} onClick={() => choose({ servers: { [task]: null } })}>Remove</button>
        </p>
      )}
      <label>Server URL<input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://10.0.0.5:8000/v1" /></label>
      <label>Model name<input value={model} onChange={(e) => setModel(e.target.value)} /></label>
      <label>Key (optional)<input type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} /></label>
      <button type="button" disabled={saving || !url.trim() || !model.trim()} onClick={save}>Test and use</button>
    </fieldset>
  );
}

/** The account's own servers and what happens when a chosen engine fails. */
export function AccountServers({ settings, saving, choose }: { settings: EngineSettings | undefined; saving: boolean; choose: (c: EngineSettingsBody) => void }) {
  return (
    <>
      <label>
        When the chosen model or server fails
        <select
          value={settings?.failureSource === 'account' ? settings.onEngineFailure : ''} disabled={!settings || saving}
          onChange={(e) => choose({ onEngineFailure: (e.target.value || null) as EngineSettingsBody['onEngineFailure'] })}
        >
          <option value="">Device default{settings ? ` (${settings.onEngineFailure === 'fail' ? 'fail' : 'embedded engine'})` : ''}</option>
          <option value="embedded">Use the embedded engine, and mark the note or transcript</option>
          <option value="fail">Fail instead</option>
        </select>
      </label>
      <ServerForm task="notes" settings={settings} saving={saving} choose={choose} />
      <ServerForm task="speech" settings={settings} saving={saving} choose={choose} />
    </>
  );
}
