import type { RouteRegistry } from '../route-registry.js';
import type { MacroLibraryService } from '../../services/macros/library-service.js';
import { MacroDefinitionSchema } from '../schemas.js';
import { registerCollectionRoutes } from './collection.js';

/** The physician's macro library (extension: `/v1/macro-library`). */
export function registerMacroLibraryRoutes(registry: RouteRegistry, deps: { library: MacroLibraryService }): void {
  registerCollectionRoutes(registry, {
    path: '/v1/macro-library', idName: 'macroId', tags: ['Macro library'], schema: MacroDefinitionSchema, bodyErrors: [],
    name: 'SavedMacro', noun: 'saved macro', short: 'macro', create: { summary: 'Save a macro', answer: 'Saved' },
  }, deps.library);
}
