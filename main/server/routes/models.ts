import type { RouteRegistry } from '../route-registry.js';
import { IdParam } from '../schemas.js';
import { ModelImportBody, ModelList, ModelPullView, ModelVerifyResult, ModelView } from '../../../shared/api/models.js';
import type { ModelService } from '../../services/models/model-service.js';

const Model = IdParam('modelId');
const tags = ['Models'];

/** What every route on one model shares: its path under `/v1/models/:modelId`, the tag and the id parameter. */
const onModel = <M extends 'get' | 'post' | 'delete'>(method: M, suffix: '' | '/pull' | '/verify', operationId: string, summary: string) =>
  ({ method, path: `/v1/models/:modelId${suffix}`, operationId, tags, summary, params: Model });

/**
 * The model manager (`/v1/models`): the catalog with what is installed on this device, downloads
 * as durable jobs with progress and cancel, imports from a local file or folder, verify, remove.
 * Models belong to the device: every account sees the same ones, and only the operator role
 * installs, cancels and removes them (issue 29: any account could pull or remove the device's models).
 */
export function registerModelRoutes(registry: RouteRegistry, deps: { models: ModelService }): void {
  registry.add(
    {
      method: 'get', path: '/v1/models', operationId: 'listModels', tags, summary: 'Recommended and installed models',
      description: 'Every catalog entry (speech and language models, with licence, languages, size and the source of each speed and memory figure) and every installed model, with its files, hashes and latest download.',
      envelope: 'standard', success: { status: 200, description: 'Models', schema: ModelList }, errors: [],
    },
    async () => ({ items: await deps.models.list() }),
  );
  registry.add(
    {
      method: 'post', path: '/v1/models/import', operationId: 'importModel', tags, summary: 'Install a model from a file or folder on this computer',
      description: 'For clinics without internet: copies a .gguf file or a model folder (a USB stick, a share) into the models folder. A catalog entry\'s files must have its publisher hashes (or those pinned at an earlier install); another model\'s hashes are pinned now. Written beside the installed models and moved into place only when complete.',
      body: ModelImportBody, envelope: 'standard', success: { status: 201, description: 'The installed model', schema: ModelView }, errors: [400, 409, 415, 507], operator: true,
    },
    ({ body }) => deps.models.importFrom(body.path, body.id),
  );
  registry.add(
    { ...onModel('get', '', 'getModel', 'One model'), envelope: 'standard', success: { status: 200, description: 'The model', schema: ModelView }, errors: [404] },
    ({ params }) => deps.models.get(params.modelId),
  );
  registry.add(
    {
      ...onModel('delete', '', 'removeModel', 'Remove an installed model'),
      description: 'Deletes the model\'s files (and a download in progress). 409 while a live session uses it. The hashes pinned at its first download are kept, so installing it again must give the same files.',
      envelope: 'delete', success: { status: 200, description: 'Removed' }, errors: [404, 409], operator: true,
    },
    async ({ params }) => void (await deps.models.remove(params.modelId)),
  );
  registry.add(
    {
      ...onModel('post', '/pull', 'pullModel', 'Download a catalog model'),
      description: 'Queues the download as a durable job and answers at once; follow it with `GET /v1/models/{modelId}/pull`. Refused with 507 when the disk cannot hold it. Resumes what an interrupted or cancelled download left. A download already under way is returned as it is.',
      envelope: 'standard', success: { status: 202, description: 'The download', schema: ModelPullView }, errors: [400, 404, 409, 507], operator: true,
    },
    ({ principal, params }) => deps.models.pull(principal.accountId, params.modelId),
  );
  registry.add(
    {
      ...onModel('get', '/pull', 'getModelPull', 'Progress of a model\'s latest download'),
      envelope: 'standard', success: { status: 200, description: 'The download', schema: ModelPullView }, errors: [404],
    },
    ({ params }) => deps.models.latestPull(params.modelId),
  );
  registry.add(
    {
      ...onModel('delete', '/pull', 'cancelModelPull', 'Cancel a model download'),
      description: 'Stops a queued or running download. What it fetched stays, so pulling again resumes.',
      envelope: 'standard', success: { status: 200, description: 'The download, cancelled', schema: ModelPullView }, errors: [404, 409], operator: true,
    },
    ({ params }) => deps.models.cancelPull(params.modelId),
  );
  registry.add(
    {
      ...onModel('post', '/verify', 'verifyModel', 'Check an installed model\'s files against their recorded hashes'),
      envelope: 'standard', success: { status: 200, description: 'Per-file result', schema: ModelVerifyResult }, errors: [404],
    },
    ({ params }) => deps.models.verify(params.modelId),
  );
}
