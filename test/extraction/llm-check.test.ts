import { describe, expect, it } from 'vitest';
import { checkExtracted } from '../../main/services/extraction/llm-check.js';
import type { CompletionRequest, LanguageModel } from '../../main/services/language-model.js';
import { embeddedExtraction } from './helpers.js';

const TEXT = `Right knee pain for 3 days after a fall. Denies fever. Takes metformin 500 mg twice daily.
Plan: x-ray of the right knee.`;
const always = (): boolean => true;
const flagsOf = (value: unknown, valid = always) => checkExtracted(value, TEXT, valid).review.map((f) => [f.path, f.kind, f.action]);

describe('a model\'s text-to-JSON answer held to the text', () => {
  it('removes invented numbers and doses, leaving null or dropping the list item', () => {
    const checked = checkExtracted({ dose: '5000 mg', count: 7, doses: ['500 mg', '850 mg'], days: 3 }, TEXT, always);
    expect(checked.data).toEqual({ dose: null, count: null, doses: ['500 mg'], days: 3 });
    expect(checked.review.map((f) => [f.path, f.kind, f.action])).toEqual([
      ['/dose', 'dose', 'removed'], ['/count', 'number', 'removed'], ['/doses/1', 'dose', 'removed'],
    ]);
  });

  it('keeps a value the schema needs, listed as marked', () => {
    const checked = checkExtracted({ dose_mg: 5000 }, TEXT, (v) => typeof (v as { dose_mg: unknown }).dose_mg === 'number');
    expect(checked.data).toEqual({ dose_mg: 5000 });
    expect(checked.review).toEqual([{ path: '/dose_mg', kind: 'number', text: '5000', reason: 'number not in the text', action: 'marked' }]);
  });

  it('flags a finding given the other way: a boolean named for it, a {name, present} pair, a list of negatives', () => {
    expect(flagsOf({ fever: true })).toEqual([['/fever', 'negation', 'marked']]);
    expect(flagsOf({ has_fever: false, denies_fever: true })).toEqual([]);
    expect(flagsOf({ symptoms: [{ name: 'fever', present: true }, { name: 'knee pain', present: true }] })).toEqual([['/symptoms/0/present', 'negation', 'marked']]);
    expect(flagsOf({ pertinent_negatives: ['knee pain', 'fever'] })).toEqual([['/pertinent_negatives/0', 'negation', 'marked']]);
  });

  it('flags a side, a diagnosis and an order the text does not give, and leaves what it gives', () => {
    expect(flagsOf({ side: 'left knee', diagnosis: 'rule out angina', orders: ['x-ray of the right knee', 'MRI of the right knee'] })).toEqual([
      ['/side', 'laterality', 'marked'], ['/diagnosis', 'diagnosis', 'marked'], ['/orders/1', 'order', 'marked'],
    ]);
    expect(flagsOf({ side: 'right knee', medication: 'metformin 500 mg twice daily', duration_days: 3, fever: false })).toEqual([]);
  });
});

describe('the service names its engine', () => {
  const model = (text: string): LanguageModel & { requests: CompletionRequest[] } => {
    const requests: CompletionRequest[] = [];
    return { name: 'scripted', requests, complete: async (r) => (requests.push(r), { text }) };
  };
  const schema = { type: 'object', properties: { fever: { type: 'boolean' }, dose: { type: ['string', 'null'] } } };

  it('the model\'s answer, checked: engine is the model\'s, the flags are listed', async () => {
    const result = await embeddedExtraction(model('{"fever": true, "dose": "5000 mg"}')).extractChecked(TEXT, schema);
    expect(result.engine).toBe('scripted');
    expect(result.data).toEqual({ fever: true, dose: null });
    expect(result.review.map((f) => f.path)).toEqual(['/fever', '/dose']);
  });

  it('without a model, or when its answer is unusable: the embedded reader, nothing to review', async () => {
    for (const service of [embeddedExtraction(), embeddedExtraction(model('no JSON here'))]) {
      const result = await service.extractChecked(TEXT, schema);
      expect(result.engine).toBe('embedded');
      expect(result.review).toEqual([]);
    }
  });
});
