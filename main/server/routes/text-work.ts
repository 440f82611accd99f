import type { TSchema } from '@sinclair/typebox';

/**
 * What every synchronous piece of work on a posted text shares (text-to-JSON, macro detection, a
 * note style from a sample): a POST with a JSON body, run in the compute worker under the work
 * budget, so it may answer a bad body (400, 415), one over the size limit (413), work stopped at
 * the budget (422) and no engine to do it (503).
 */
export const textWork = <B extends TSchema>(body: B) => ({ method: 'post' as const, body, errors: [400, 413, 415, 422, 503] });
