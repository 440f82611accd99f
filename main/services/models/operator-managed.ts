import { DomainError } from '../errors.js';
import type { CodeEditionsService } from '../coding/code-editions.js';
import type { ModelService } from './model-service.js';

/**
 * A clinic server's models and code sets are installed by its operator on every instance
 * (`clindoc models pull`, `clindoc codes import`), never through the API: a request reaches one
 * instance behind the load balancer, and the workers that write notes and transcribe would not
 * see what landed in that instance's data folder.
 */
const MODELS_MESSAGE = 'on a clinic server, models are installed by its operator on every instance (clindoc models pull), not through the API';
const CODES_MESSAGE = 'on a clinic server, ICD-10-CM releases are imported by its operator on every instance (clindoc codes import), not through the API';

/** The model manager as a clinic server's API offers it: listed and verified, never installed, cancelled or removed. */
export function operatorManagedModels(service: ModelService): ModelService {
  const refuse = async (): Promise<never> => {
    throw new DomainError('conflict', MODELS_MESSAGE);
  };
  return { ...service, pull: refuse, cancelPull: refuse, remove: refuse, importFrom: refuse };
}

/** The code editions as a clinic server's API offers them: listed, never imported. */
export function operatorManagedCodeEditions(service: CodeEditionsService): CodeEditionsService {
  const refuse = (): never => {
    throw new DomainError('conflict', CODES_MESSAGE);
  };
  return { ...service, refuseImport: refuse, importRelease: refuse };
}
