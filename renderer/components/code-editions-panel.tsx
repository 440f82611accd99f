import { useState, type FormEvent } from 'react';
import type { CodeEditionList } from '../../shared/api/coding-editions.js';
import { CMS_ICD10_PAGE, editionAge } from '../state/code-edition-age.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { useApiRead } from './use-api-read.js';

/**
 * Settings > Coding: the ICD-10-CM edition in use and the import of a newer CMS release (order
 * file, optionally the tabular XML), the same import as `clindoc codes import`. The code set is
 * the installation's: every account codes with the newest edition present.
 */
export function CodeEditionsPanel({ today }: { today?: Date } = {}) {
  const [order, setOrder] = useState<File>();
  const [tabular, setTabular] = useState<File>();
  const [edition, setEdition] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  const { client, value: editions, refresh } = useApiRead<CodeEditionList>((c) => c.listCodeEditions(),
    (err) => setError(`The code sets could not be listed: ${(err as Error).message}`));
  if (!client) return null;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!order) return;
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    try {
      const done = await client.importCodeEdition({
        order, orderName: order.name, ...(tabular ? { tabular, tabularName: tabular.name } : {}), ...(edition.trim() ? { edition: edition.trim() } : {}),
      });
      setMessage(`Imported ICD-10-CM ${done.edition}: ${done.billable.toLocaleString('en-US')} billable codes${done.active ? ', now in use' : ' (a newer edition stays in use)'}.`);
      await refresh();
    } catch (err) {
      setError(`Import failed: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="coding-title">
      <h3 id="coding-title">Coding</h3>
      <p data-testid="active-edition">
        {editions === undefined ? 'Reading the code sets…' : editions.active ? `ICD-10-CM edition in use: ${editions.active}` : 'No ICD-10-CM code set is loaded.'}
      </p>
      {editions && editions.items.length > 1 && (
        <ul aria-label="ICD-10-CM editions">
          {editions.items.map((i) => (
            <li key={`${i.source}-${i.edition}`}>
              {i.edition} ({i.source}{i.billable !== undefined ? `, ${i.billable.toLocaleString('en-US')} billable codes` : ''}){i.active ? ' · in use' : ''}
            </li>
          ))}
        </ul>
      )}
      {(() => {
        // CMS puts a new edition in force every 1 October; a stale code set is said in words, with what to do.
        const age = editions?.active ? editionAge(editions.active, today ?? new Date()) : undefined;
        if (!age) return null;
        const since = age.replacedOn.toLocaleDateString(undefined, { dateStyle: 'long' });
        return (
          <div className="message warning" role="status" data-testid="edition-outdated">
            <p>
              <strong>A newer ICD-10-CM edition exists.</strong> FY{age.edition} was replaced on {since}; FY{age.current} is in force now
              {age.current - age.edition > 1 ? ` (${age.current - age.edition} editions newer than the one in use)` : ''}. Codes suggested from
              FY{age.edition} may have been split, retired or renamed since.
            </p>
            <p>
              To update: on <a href={CMS_ICD10_PAGE} target="_blank" rel="noreferrer">the CMS ICD-10 page</a>, open “{age.current} ICD-10-CM files”,
              download “Code Descriptions in Tabular Order” and “Code Tables, Tabular and Index” (ZIP files), unzip them, and import
              the order file (the <code>.txt</code> named “order”) and the tabular list (the <code>.xml</code> named “tabular”) below, or give
              them to <code>clindoc codes import</code>. Importing needs the operator role.
            </p>
          </div>
        );
      })()}
      <form onSubmit={(e) => void submit(e)} aria-label="Import an ICD-10-CM release">
        <p className="hint">Codes change every October. Load the CMS release (order file, and the tabular list XML for inclusion terms and notes); plain or .gz. It is used for every account of this installation.</p>
        <div className="grid">
          <label>
            Order file
            <input type="file" accept=".txt,.gz" onChange={(e) => setOrder(e.target.files?.[0])} />
          </label>
          <label>
            Tabular list XML (optional)
            <input type="file" accept=".xml,.gz" onChange={(e) => setTabular(e.target.files?.[0])} />
          </label>
          <label>
            Edition (optional)
            <input value={edition} onChange={(e) => setEdition(e.target.value)} placeholder="e.g. FY2025" maxLength={40} />
          </label>
        </div>
        <div className="toolbar">
          <button type="submit" disabled={!order || busy}>{busy ? 'Importing…' : 'Import code set'}</button>
        </div>
      </form>
      {message && <StatusMessage>{message}</StatusMessage>}
      {error && <ErrorMessage onDismiss={() => setError(undefined)}>{error}</ErrorMessage>}
    </section>
  );
}
