import type { Static, TSchema } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';

/** A read of something the account has one of (its settings, its storage): no parameters, no body. */
export interface AccountReadSpec<S extends TSchema> {
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** The answer (`data` of the standard envelope), and what it says. */
  schema: S;
  answer: string;
}

/**
 * Registers `GET path`, answered by `read` with the calling account's id: the shape of every
 * account-wide read (engine settings, retention, storage usage). `read` must answer the schema's
 * static type (checked where this is called, with the caller's concrete schema).
 */
export function registerAccountRead<S extends TSchema>(registry: RouteRegistry, spec: AccountReadSpec<S>, read: (accountId: string) => Promise<Static<S>>): void {
  // Past the call's check the answer's type no longer matters here.
  const schema: TSchema = spec.schema;
  const answer: (accountId: string) => Promise<unknown> = read;
  registry.add(
    {
      method: 'get', path: spec.path, operationId: spec.operationId, tags: spec.tags, summary: spec.summary, ...(spec.description ? { description: spec.description } : {}),
      envelope: 'standard', success: { status: 200, description: spec.answer, schema }, errors: [],
    },
    ({ principal }) => answer(principal.accountId),
  );
}
