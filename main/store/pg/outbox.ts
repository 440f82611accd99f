import { randomUUID } from 'node:crypto';
import type { Announcement } from '../../services/storage.js';
import type { Sql } from './sql.js';

/**
 * Runs a conditional UPDATE and, when there is an announcement, writes its webhook event to the
 * outbox in the same statement (a data-modifying CTE is one atomic statement): the event exists
 * exactly when the update wrote. True when a row was written.
 */
export async function updateAnnounced(sql: Sql, update: string, values: unknown[], announce: Announcement | undefined): Promise<boolean> {
  if (!announce) return (await sql.query(update, values)).rowCount > 0;
  const at = values.length;
  const statement =
    `WITH written AS (${update} RETURNING id, account_id)
     INSERT INTO webhook_outbox (id, account_id, event, resource_id, request_url, created_at)
     SELECT $${at + 1}, account_id, $${at + 2}, id, $${at + 3}, $${at + 4}::bigint FROM written`;
  const event = [`evt_${randomUUID().replace(/-/g, '')}`, announce.event, announce.requestUrl ?? null, Date.now()];
  return (await sql.query(statement, [...values, ...event])).rowCount > 0;
}

/**
 * Writes `sets` (placeholders numbered after `values`) to one row of `table`, only while it still
 * has the version and one of the statuses `only` names: the condition is part of the statement
 * that writes, so of two racing changes the second waits for the first's row lock, re-checks the
 * committed row and writes nothing. False when there is nothing to write or no row was written.
 */
export async function updateRow(
  sql: Sql, table: string, sets: string[], values: unknown[], id: string,
  only: { version?: number; statusIn?: readonly string[] } | undefined, announce: Announcement | undefined,
): Promise<boolean> {
  if (!sets.length) return false;
  values.push(id);
  let where = `id = $${values.length}`;
  if (only?.version !== undefined) {
    values.push(only.version);
    where += ` AND version = $${values.length}`;
  }
  if (only?.statusIn) {
    values.push(only.statusIn);
    where += ` AND status = ANY($${values.length}::text[])`;
  }
  return updateAnnounced(sql, `UPDATE ${table} SET ${sets.join(', ')} WHERE ${where}`, values, announce);
}
