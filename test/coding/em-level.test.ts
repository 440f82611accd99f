import { describe, expect, it } from 'vitest';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';
import { createCodingService } from '../../main/services/coding/coding-service.js';

const coder = createIcdCoder(loadCodeTable()!, readCodingLexicon());
const service = createCodingService({ coder: () => coder, notes: { get: async () => ({ status: 'STATUS_DONE' }) } });
const em = async (text: string) => (await service.analyzeText(text)).codes.find((c) => c.system === 'CPT');

describe('office E/M level', () => {
  it('two stable chronic illnesses with prescription drug management are moderate MDM: 99214', async () => {
    const cpt = await em('ASSESSMENT AND PLAN\n1. Hypertension, stable. Continue lisinopril 20 mg daily.\n2. Hyperlipidemia. Continue atorvastatin 40 mg.');
    expect(cpt?.code).toBe('99214');
    expect(cpt?.reasoning).toMatchObject({ patient: 'established', basis: 'mdm', problems: 'moderate', risk: 'moderate', mdm: 'moderate' });
  });

  it('one acute uncomplicated problem treated over the counter is low MDM: 99213', async () => {
    const cpt = await em('ASSESSMENT AND PLAN\nViral upper respiratory infection. Rest, fluids, acetaminophen as needed.');
    expect(cpt?.code).toBe('99213');
    expect(cpt?.reasoning).toMatchObject({ problems: 'low', risk: 'low', mdm: 'low' });
  });

  it('a chronic illness with exacerbation and a decision to hospitalize is high MDM: 99215', async () => {
    const cpt = await em('ASSESSMENT AND PLAN\nCOPD exacerbation, severe exacerbation with hypoxia. We will admit him to the hospital for IV steroids.');
    expect(cpt?.code).toBe('99215');
    expect(cpt?.reasoning?.risk).toBe('high');
  });

  it('documented total time sets the level when it is higher, with its evidence', async () => {
    const text = 'ASSESSMENT AND PLAN\nHypertension, stable. Continue amlodipine 5 mg.\nTotal time spent on the date of the encounter: 42 minutes.';
    const cpt = await em(text);
    expect(cpt?.code).toBe('99215');
    expect(cpt?.reasoning).toMatchObject({ basis: 'time', minutes: 42 });
    expect(cpt?.evidence.map((e) => e.text).join(' ')).toMatch(/42 minutes/);
  });

  it('a new patient is coded in the new-patient range', async () => {
    const cpt = await em('New patient establishing care.\nASSESSMENT AND PLAN\nAsthma, mild intermittent. Albuterol as needed.\nI spent 35 minutes with the patient.');
    expect(cpt?.code).toBe('99203');
    expect(cpt?.reasoning?.patient).toBe('new');
  });

  it('suggests no E/M level for a text that is not a visit note', async () => {
    expect(await em('Left knee osteoarthritis.')).toBeUndefined();
    expect(await em('We talked about the weather.')).toBeUndefined();
  });

  it('shows code numbers only: no AMA descriptor without a licensed table', async () => {
    const cpt = await em('ASSESSMENT AND PLAN\nHypertension, stable. Continue lisinopril 10 mg.');
    expect(cpt?.display).toMatch(/level \d/);
    expect(cpt?.display).toMatch(/CLINDOC_CPT_TABLE/);
    expect(cpt?.licensedDescriptor).toBeUndefined();
  });
});
