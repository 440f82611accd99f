import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire schemas of the ICD-10-CM editions of the installation (`/v1/coding/editions`, an extension
 * recorded in OpenAPI): the bundled code set and the CMS releases an operator imported.
 */

export const CodeEditionView = Type.Object({
  edition: Type.String({ description: 'Edition label, e.g. FY2021; every coding suggestion names it.' }),
  source: Type.String({ enum: ['bundled', 'imported'], description: 'bundled: shipped in resources/codes; imported: loaded with `clindoc codes import` or this API.' }),
  active: Type.Boolean({ description: 'True for the edition coding uses now: the newest present.' }),
  billable: Type.Optional(Type.Integer({ minimum: 0, description: 'Billable codes of the edition (the only ones suggested).' })),
  lines: Type.Optional(Type.Integer({ minimum: 0, description: 'Lines of the CMS order file (codes and headings).' })),
  tabular: Type.Optional(Type.Boolean({ description: 'Whether the tabular list (inclusion terms, Excludes and "code also" notes) was loaded with it.' })),
});
export type CodeEditionView = Static<typeof CodeEditionView>;

export const CodeEditionList = Type.Object({
  active: Type.Optional(Type.String({ description: 'The edition in use; absent when no code set is present.' })),
  items: Type.Array(CodeEditionView, { description: 'Newest first.' }),
});
export type CodeEditionList = Static<typeof CodeEditionList>;

export const CodeEditionImported = Type.Object({
  edition: Type.String(),
  lines: Type.Integer({ minimum: 0 }),
  billable: Type.Integer({ minimum: 0 }),
  active: Type.Boolean({ description: 'Whether coding now uses it (false when a newer edition is present).' }),
  sha256: Type.Object({ order: Type.String(), tabular: Type.Optional(Type.String()) }, { description: 'Digests of the uncompressed files, as recorded in the code set.' }),
});
export type CodeEditionImported = Static<typeof CodeEditionImported>;
