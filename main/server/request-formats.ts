import type { Ajv } from 'ajv';

/**
 * The string formats request schemas may name, checked by the route registry so no service
 * repeats them, with the words an error message uses for each. `date` is OpenAPI's (RFC 3339
 * full-date); `encounter-date` is the contract's note date, a day or a UTC time on it.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ENCOUNTER = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/;

/** A day of the calendar (not 2026-02-30), as `YYYY-MM-DD`. */
function realDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

export const REQUEST_FORMATS: Record<string, { check: (value: string) => boolean; words: string }> = {
  date: { check: (value) => DAY.test(value) && realDay(value), words: 'YYYY-MM-DD' },
  'encounter-date': { check: (value) => ENCOUNTER.test(value) && realDay(value.slice(0, 10)), words: 'YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ' },
};

/** Teaches `ajv` the request formats. */
export function addRequestFormats(ajv: Ajv): Ajv {
  for (const [name, format] of Object.entries(REQUEST_FORMATS)) ajv.addFormat(name, { type: 'string', validate: format.check });
  return ajv;
}
