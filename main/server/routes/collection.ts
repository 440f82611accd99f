import type { Static, TSchema } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import type { DocumentCollection } from '../../services/document-collection.js';
import { IdParam, PageQuery, pageOf } from '../schemas.js';

/** One collection as the OpenAPI document names it. */
export interface CollectionSpec<S extends TSchema> {
  /** `/v1/macro-library`; an item is at `${path}/:${idName}`. */
  path: string;
  idName: string;
  tags: string[];
  /** A stored document: the request body of create and replace, and every answer. */
  schema: S;
  /** Besides the 400 and 415 of every body, what a create or replace may answer (a 413 for large documents). */
  bodyErrors: number[];
  /** `SavedMacro`: the operations are listSavedMacros, createSavedMacro, getSavedMacro... */
  name: string;
  /** In summaries: `saved macro` ("Get a saved macro", "List saved macros"). */
  noun: string;
  /** In answers: `macro` ("The macro", "A page of macros"). */
  short: string;
  /** Creating says more than "Create a ...": `Save a macro`, answered `Saved`. */
  create: { summary: string; answer: string; description?: string };
}

/**
 * Registers the five routes of a collection of stored documents (list, create, get, replace,
 * delete): one shape for saved macros and note templates alike, with the paged list, 201 on
 * create, the id in the path and 404 for an unknown one. The service must take and answer the
 * schema's static type (checked where this is called, with the caller's concrete schema).
 */
export function registerCollectionRoutes<S extends TSchema>(registry: RouteRegistry, spec: CollectionSpec<S>, service: DocumentCollection<Static<S>>): void {
  // Past the call's check the document's type no longer matters here: every route hands on what its schema validated.
  const docs: DocumentCollection<unknown> = service;
  const schema: TSchema = spec.schema;
  const { path, idName, tags, name, noun, short } = spec;
  const item = `${path}/:${idName}`;
  const params = IdParam<string>(idName);
  const standard = 'standard';
  registry.add(
    {
      method: 'get', path, operationId: `list${name}s`, tags, summary: `List ${noun}s, newest first`, query: PageQuery, envelope: standard,
      success: { status: 200, description: `A page of ${short}s`, schema: pageOf(schema) }, errors: [400],
    },
    ({ principal, query }) => docs.list(principal.accountId, query.limit ?? 20, query.cursor),
  );
  registry.add(
    {
      method: 'post', path, operationId: `create${name}`, tags, summary: spec.create.summary, ...(spec.create.description ? { description: spec.create.description } : {}),
      body: schema, envelope: standard, success: { status: 201, description: spec.create.answer, schema }, errors: [400, 409, ...spec.bodyErrors, 415],
    },
    ({ principal, body }) => docs.create(principal.accountId, body),
  );
  registry.add(
    { method: 'get', path: item, operationId: `get${name}`, tags, summary: `Get a ${noun}`, params, envelope: standard, success: { status: 200, description: `The ${short}`, schema }, errors: [404] },
    ({ principal, params }) => docs.get(principal.accountId, params[idName]),
  );
  registry.add(
    {
      method: 'put', path: item, operationId: `replace${name}`, tags, summary: `Replace a ${noun}`, params, body: schema, envelope: standard,
      success: { status: 200, description: 'Replaced', schema }, errors: [400, 404, ...spec.bodyErrors, 415],
    },
    ({ principal, params, body }) => docs.replace(principal.accountId, params[idName], body),
  );
  registry.add(
    { method: 'delete', path: item, operationId: `delete${name}`, tags, summary: `Delete a ${noun}`, params, envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404] },
    ({ principal, params }) => docs.delete(principal.accountId, params[idName]),
  );
}
