import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';

/** A background job that used up its attempts: what an operator or integrator needs to act on it. */
export interface DeadLetterView {
  id: string;
  kind: string;
  resourceId: string;
  attempts: number;
  /** Why the last attempt failed, in the queue's words (never transcript or note content). */
  message: string;
  /** Milliseconds since the epoch. */
  failedAt: number;
}

/** The account's dead letters, newest first, from whichever queue this installation runs. */
export type DeadLetterSource = (accountId: string, limit: number) => Promise<DeadLetterView[]>;

const DeadLetter = Type.Object(
  {
    id: Type.String({ description: 'Job id.' }),
    kind: Type.String({ description: '`note_generation` or `audio_transcription`.' }),
    resourceId: Type.String({ description: 'The note or transcription the job was for (it is marked failed).' }),
    attempts: Type.Integer({ minimum: 0 }),
    message: Type.String({ description: 'Why the last attempt failed; never patient content.' }),
    failedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'A background job given up after its last retry.' },
);

const Query = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'How many (1-200, default 50).' })),
});

/** `GET /v1/jobs/dead-letters`: jobs of the calling account that failed every attempt. */
export function registerJobRoutes(registry: RouteRegistry, deps: { deadLetters: DeadLetterSource }): void {
  registry.add(
    {
      method: 'get', path: '/v1/jobs/dead-letters', operationId: 'listDeadLetters', tags: ['Jobs'],
      summary: "The account's background jobs that failed every attempt, newest first",
      description:
        'Note writing and batch transcription run as background jobs, retried with exponential backoff. A job that fails its ' +
        'last attempt (or whose worker stopped responding on it every time) lands here, and its note or transcription is ' +
        'marked failed with the same reason. Only the calling account\'s jobs. On PostgreSQL the queue keeps them about 7 days.',
      query: Query, envelope: 'standard',
      success: { status: 200, description: 'Dead letters, newest first', schema: Type.Object({ items: Type.Array(DeadLetter) }) }, errors: [400],
    },
    async ({ principal, query }) => {
      const items = await deps.deadLetters(principal.accountId, query.limit ?? 50);
      return { items: items.map((d) => ({ ...d, failedAt: new Date(d.failedAt).toISOString() })) };
    },
  );
}
