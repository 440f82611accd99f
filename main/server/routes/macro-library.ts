import type { RouteRegistry } from '../route-registry.js';
import type { MacroLibraryService } from '../../services/macros/library-service.js';
import { IdParam, MacroDefinitionSchema, PageQuery, pageOf } from '../schemas.js';

/** The physician's macro library (extension: `/v1/macro-library`). */
export function registerMacroLibraryRoutes(registry: RouteRegistry, deps: { library: MacroLibraryService }): void {
  const tags = ['Macro library'];
  registry.add(
    {
      method: 'get', path: '/v1/macro-library', operationId: 'listSavedMacros', tags, summary: 'List saved macros, newest first',
      query: PageQuery, envelope: 'standard', success: { status: 200, description: 'A page of macros', schema: pageOf(MacroDefinitionSchema) }, errors: [400],
    },
    ({ principal, query }) => deps.library.list(principal.accountId, query.limit ?? 20, query.cursor),
  );
  registry.add(
    {
      method: 'post', path: '/v1/macro-library', operationId: 'createSavedMacro', tags, summary: 'Save a macro',
      body: MacroDefinitionSchema, envelope: 'standard', success: { status: 201, description: 'Saved', schema: MacroDefinitionSchema }, errors: [400, 409, 415],
    },
    ({ principal, body }) => deps.library.create(principal.accountId, body),
  );
  registry.add(
    {
      method: 'get', path: '/v1/macro-library/:macroId', operationId: 'getSavedMacro', tags, summary: 'Get a saved macro',
      params: IdParam('macroId'), envelope: 'standard', success: { status: 200, description: 'The macro', schema: MacroDefinitionSchema }, errors: [404],
    },
    ({ principal, params }) => deps.library.get(principal.accountId, params.macroId),
  );
  registry.add(
    {
      method: 'put', path: '/v1/macro-library/:macroId', operationId: 'replaceSavedMacro', tags, summary: 'Replace a saved macro',
      params: IdParam('macroId'), body: MacroDefinitionSchema, envelope: 'standard',
      success: { status: 200, description: 'Replaced', schema: MacroDefinitionSchema }, errors: [400, 404, 415],
    },
    ({ principal, params, body }) => deps.library.replace(principal.accountId, params.macroId, body),
  );
  registry.add(
    {
      method: 'delete', path: '/v1/macro-library/:macroId', operationId: 'deleteSavedMacro', tags, summary: 'Delete a saved macro',
      params: IdParam('macroId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
    },
    ({ principal, params }) => deps.library.delete(principal.accountId, params.macroId),
  );
}
