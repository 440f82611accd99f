import type { Request } from 'express';
import busboy from 'busboy';
import type { RouteRegistry } from '../route-registry.js';
import type { CodeEditionsService, ReleaseFile } from '../../services/coding/code-editions.js';
import { DomainError, invalidRequest, payloadTooLarge } from '../../services/errors.js';
import { CodeEditionImported, CodeEditionList } from '../../../shared/api/coding-editions.js';

/** Largest release file accepted (the order file is ~13 MB plain, the tabular XML ~40 MB; gzip is smaller). */
export const MAX_RELEASE_FILE_BYTES = 64 * 1024 * 1024;
/** Both files and the form's fields; above this Content-Length alone is a 413. */
const MAX_UPLOAD_BYTES = 2 * MAX_RELEASE_FILE_BYTES + 64 * 1024;

/** Reads the form: files `order` (required) and `tabular`, field `edition`. Files are held in memory (the parser needs them whole). */
function readRelease(req: Request): Promise<{ order?: ReleaseFile; tabular?: ReleaseFile; edition?: string }> {
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof busboy>;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 2, fields: 5, fieldSize: 200, fileSize: MAX_RELEASE_FILE_BYTES } });
    } catch {
      reject(invalidRequest('body: malformed multipart/form-data'));
      return;
    }
    const files: Record<string, ReleaseFile> = {};
    let edition: string | undefined;
    let failed: DomainError | undefined;
    bb.on('field', (name, value) => {
      if (name === 'edition' && value.trim()) edition = value.trim();
    });
    bb.on('file', (name, file, info) => {
      if ((name !== 'order' && name !== 'tabular') || files[name]) {
        file.resume();
        return;
      }
      const chunks: Buffer[] = [];
      file.on('data', (c: Buffer) => chunks.push(c));
      file.on('limit', () => {
        failed = payloadTooLarge(`${name}: at most ${MAX_RELEASE_FILE_BYTES} bytes`);
      });
      file.on('end', () => {
        if (!failed) files[name] = { name: (info.filename || name).slice(-200), bytes: Buffer.concat(chunks) };
      });
    });
    bb.on('error', () => reject(invalidRequest('body: malformed multipart/form-data')));
    bb.on('close', () => (failed ? reject(failed) : resolve({ ...files, ...(edition ? { edition } : {}) })));
    req.pipe(bb);
  });
}

const WHO =
  'Decision (issue 29): any authenticated account may list; only the operator role may import. The code set is installation-wide (one table ' +
  'serves every account, as `clindoc codes import` loads it) and decides which edition every account\'s suggestions come from, so changing it ' +
  'belongs to the person who runs the installation (the desktop\'s local account, or an operator a clinic names), not to any account.';

/** ICD-10-CM editions: list, and import a CMS release from Settings (the CLI's import module). */
export function registerCodingEditionRoutes(registry: RouteRegistry, deps: { editions: CodeEditionsService }): void {
  registry.add(
    {
      method: 'get', path: '/v1/coding/editions', operationId: 'listCodingEditions', tags: ['Coding'],
      summary: 'ICD-10-CM editions present (bundled and imported) and the one in use',
      description: `Coding uses the newest edition present. ${WHO}`,
      envelope: 'standard', success: { status: 200, description: 'Editions, newest first', schema: CodeEditionList }, errors: [],
    },
    () => deps.editions.list(),
  );
  registry.add(
    {
      method: 'post', path: '/v1/coding/editions', operationId: 'importCodingEdition', tags: ['Coding'],
      summary: 'Import a CMS ICD-10-CM release (order file, optional tabular XML)',
      description:
        'multipart/form-data: file `order` (the CMS order file, e.g. icd10cm-order-2025.txt, plain or .gz; required), file `tabular` ' +
        '(the tabular list XML, plain or .gz; optional: it adds inclusion terms, Excludes and "code also" notes), field `edition` ' +
        '(e.g. FY2025; optional, else read from the tabular list\'s version or the order file\'s name). The same parser as ' +
        '`clindoc codes import`; the code set is written to the data folder and coding uses the newest edition from the next request. ' +
        `A file that does not follow the CMS layout is a 400 naming the line; each file at most ${MAX_RELEASE_FILE_BYTES} bytes (413), ` +
        `${256 * 1024 * 1024} bytes uncompressed. ${WHO}`,
      rawBody: { contentTypes: ['multipart/form-data'], description: 'Files `order` and optional `tabular`, field `edition`.' },
      envelope: 'standard', success: { status: 201, description: 'Imported', schema: CodeEditionImported }, errors: [400, 409, 413, 415], operator: true,
    },
    async ({ req }) => {
      try {
        deps.editions.refuseImport?.();
      } catch (err) {
        req.resume(); // discard, never buffer
        throw err;
      }
      if (Number(req.get('content-length') ?? 0) > MAX_UPLOAD_BYTES) {
        req.resume(); // discard, never buffer
        throw payloadTooLarge(`the release files exceed ${MAX_RELEASE_FILE_BYTES} bytes each`);
      }
      if (!req.is('multipart/form-data')) {
        req.resume();
        throw new DomainError('unsupported_media_type', 'send multipart/form-data with the file `order` (and optionally `tabular`)');
      }
      const form = await readRelease(req);
      if (!form.order) throw invalidRequest('order: a file field named "order" (the CMS order file) is required');
      return deps.editions.importRelease(form.order, form.tabular, form.edition);
    },
  );
}
