/**
 * The state one value build carries, in its own module so that the scalar builder
 * (`generator.ts`) and the array and object builders (`generator-containers.ts`) share it
 * without importing each other.
 */
import type { Checker } from './checker.js';
import type { Draft, RefResolver } from './schema-walk.js';

/** What the builder needs: the draft, `$ref` resolution and a quick checker. */
export interface BuildContext {
  draft: Draft;
  refs: RefResolver;
  checker: Checker;
  /** Remaining work units; exhausting them stops exploring alternatives (hostile schemas). */
  steps: number;
}
