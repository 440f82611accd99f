import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as draft04Module from 'ajv-draft-04';
import * as formatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createEmbeddedExtractor } from '../../main/engines/extraction/index.js';
import { createExtractionService, type ExtractionService } from '../../main/services/extraction/index.js';
import type { LanguageModel } from '../../main/services/language-model.js';

const AjvDraft04 = ((draft04Module as unknown as { default: { default?: unknown } }).default.default ??
  (draft04Module as unknown as { default: unknown }).default) as typeof Ajv;
const addFormats = ((formatsModule as unknown as { default: { default?: unknown } }).default.default ??
  (formatsModule as unknown as { default: unknown }).default) as (ajv: InstanceType<typeof Ajv>) => unknown;

/** Validates with a fresh ajv for the given draft, independent of the service's instances. */
export function validatesAgainst(schema: object, value: unknown, draft: '04' | '07' | '2019' | '2020' = '07'): boolean {
  const opts = { strict: false, logger: false as const };
  const ajv = draft === '04' ? new AjvDraft04(opts) : draft === '2019' ? (new Ajv2019(opts) as unknown as InstanceType<typeof Ajv>)
    : draft === '2020' ? (new Ajv2020(opts) as unknown as InstanceType<typeof Ajv>) : new Ajv(opts);
  addFormats(ajv);
  return ajv.compile(schema)(value) as boolean;
}

export const NOTE = `Patient: John Smith. DOB: 03/14/1958. Date of service: 2024-05-02.
67-year-old male presents with chest pain and shortness of breath for 2 days. Denies fever, nausea, or vomiting.
PMH: hypertension, type 2 diabetes, hyperlipidemia.
Medications: lisinopril 10 mg PO daily, metformin 500 mg by mouth twice daily, atorvastatin 40 mg at bedtime.
Allergies: penicillin (rash), sulfa.
Vitals: BP 142/88 mmHg, HR 96 bpm, Temp 98.6 F, SpO2 95% on room air, RR 18, weight 82 kg.
Social: former smoker, quit 10 years ago.
Assessment: unstable angina. Plan: admit to telemetry.`;

/** The extraction prompt the app ships (composition reads the same file and hands its text in). */
export const SHIPPED_PROMPT = readFileSync(new URL('../../resources/prompts/extraction.md', import.meta.url), 'utf8');

/**
 * The text-to-JSON service wired as the composition wires it: the embedded clinical reader, and,
 * given a model, the model first with the shipped prompt.
 */
export function embeddedExtraction(model?: LanguageModel): ExtractionService {
  return createExtractionService({ extractor: createEmbeddedExtractor(), ...(model ? { llm: { model, prompt: SHIPPED_PROMPT } } : {}) });
}
