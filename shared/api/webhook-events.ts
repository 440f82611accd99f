/**
 * Events a webhook may subscribe to. A plain list with no TypeBox import, so the renderer can
 * offer them as choices without pulling the schema library into its bundle.
 */
export const WEBHOOK_EVENTS = ['audio_transcription.succeeded', 'audio_transcription.failed', 'note_generation.succeeded', 'note_generation.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
