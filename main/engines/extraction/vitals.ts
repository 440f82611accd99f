/** Vital signs as read from the text, with the unit the text gave. */
export interface Vitals {
  bp?: { systolic: number; diastolic: number; text: string };
  heartRate?: { value: number; text: string };
  temperature?: { value: number; unit: 'F' | 'C'; text: string };
  spo2?: { value: number; text: string };
  respiratoryRate?: { value: number; text: string };
  weight?: { value: number; unit: 'kg' | 'lb'; text: string };
  height?: { value: number; unit: 'cm' | 'in' | 'm'; text: string };
  bmi?: { value: number; text: string };
  pain?: { value: number; text: string };
}

const LINK = String.raw`\s*(?::|=|of|is|was|at|measured at|reading)?\s*(?:of\s*)?`;

/** Reads blood pressure, pulse, temperature, SpO2, respiration, weight, height, BMI and pain score. */
export function readVitals(text: string): Vitals {
  const v: Vitals = {};
  const bp = new RegExp(String.raw`(?:\bBP\b|blood pressure|b\/p)${LINK}(\d{2,3})\s*\/\s*(\d{2,3})(\s*mm\s*hg)?`, 'i').exec(text)
    ?? /\b(\d{2,3})\s*\/\s*(\d{2,3})(\s*mm\s*hg)\b/i.exec(text);
  if (bp) v.bp = { systolic: Number(bp[1]), diastolic: Number(bp[2]), text: `${bp[1]}/${bp[2]} mmHg` };
  const hr = new RegExp(String.raw`(?:\bHR\b|heart rate|\bpulse(?: rate)?|\bP\b(?=\s*[:=]?\s*\d))${LINK}(\d{2,3})(\s*(?:bpm|beats per minute|\/min))?`, 'i').exec(text)
    ?? /\b(\d{2,3})\s*(bpm|beats per minute)\b/i.exec(text);
  if (hr) v.heartRate = { value: Number(hr[1]), text: `${hr[1]} bpm` };
  const temp = new RegExp(String.raw`(?:\btemp(?:erature)?\b|\bT\b(?=\s*[:=]?\s*\d)|\btmax\b)${LINK}(\d{2,3}(?:\.\d+)?)\s*(°\s*[FC]|degrees?\s*(?:f|c|fahrenheit|celsius)|[FC]\b)?`, 'i').exec(text)
    ?? /\b(\d{2,3}(?:\.\d+)?)\s*(°\s*[FC]|degrees (?:fahrenheit|celsius))/i.exec(text);
  if (temp) {
    const value = Number(temp[1]);
    const unitText = (temp[2] ?? '').toLowerCase();
    const unit: 'F' | 'C' = unitText.includes('c') ? 'C' : unitText.includes('f') ? 'F' : value > 45 ? 'F' : 'C';
    v.temperature = { value, unit, text: `${temp[1]} ${unit === 'F' ? '°F' : '°C'}` };
  }
  const spo2 = new RegExp(String.raw`(?:spo2|sp02|o2 sat(?:uration)?s?|oxygen saturation|\bsat(?:uration|s|ting|urating)?\b|pulse ox(?:imetry)?)${LINK}(\d{2,3})\s*%?`, 'i').exec(text)
    ?? /\b(\d{2,3})\s*%\s*(?:on|at)\s*(?:room air|ra\b|\d+\s*l)/i.exec(text);
  if (spo2 && Number(spo2[1]) <= 100) v.spo2 = { value: Number(spo2[1]), text: `${spo2[1]}%` };
  const rr = new RegExp(String.raw`(?:\bRR\b|resp(?:iratory)?(?: rate)?|respirations|\bR\b(?=\s*[:=]?\s*\d))${LINK}(\d{1,2})\b`, 'i').exec(text)
    ?? /\b(\d{1,2})\s*(?:breaths per minute|breaths\/min)/i.exec(text);
  if (rr) v.respiratoryRate = { value: Number(rr[1]), text: `${rr[1]} breaths/min` };
  const wt = new RegExp(String.raw`(?:\bweight\b|\bwt\b|\bweighs\b|\bweighing\b)${LINK}(\d{1,3}(?:\.\d+)?)\s*(kg|kilograms?|lbs?|pounds?)`, 'i').exec(text)
    ?? /\b(\d{2,3}(?:\.\d+)?)\s*(kg|kilograms|lbs|pounds)\b/i.exec(text);
  if (wt) {
    const unit = /^k/i.test(wt[2] ?? '') ? 'kg' : 'lb';
    v.weight = { value: Number(wt[1]), unit, text: `${wt[1]} ${unit}` };
  }
  const ht = new RegExp(String.raw`(?:\bheight\b|\bht\b|\bstands\b|\bis\b(?=\s*\d\s*(?:'|ft|feet)))${LINK}(?:(\d)\s*(?:'|ft|feet|foot)\s*(\d{1,2})?\s*(?:"|''|in(?:ches)?)?|(\d{2,3}(?:\.\d+)?)\s*(cm|centimeters?|in(?:ches)?)|(\d\.\d{1,2})\s*(m|meters?)\b)`, 'i').exec(text);
  if (ht) {
    if (ht[1] !== undefined) {
      const inches = Number(ht[1]) * 12 + Number(ht[2] ?? 0);
      v.height = { value: inches, unit: 'in', text: `${ht[1]}'${ht[2] ?? 0}"` };
    } else if (ht[3] !== undefined) {
      const unit = /^c/i.test(ht[4] ?? '') ? 'cm' : 'in';
      v.height = { value: Number(ht[3]), unit, text: `${ht[3]} ${unit}` };
    } else if (ht[5] !== undefined) {
      v.height = { value: Number(ht[5]), unit: 'm', text: `${ht[5]} m` };
    }
  }
  const bmi = new RegExp(String.raw`\bBMI${LINK}(\d{2}(?:\.\d+)?)`, 'i').exec(text);
  if (bmi) v.bmi = { value: Number(bmi[1]), text: bmi[1] as string };
  const pain = /\bpain(?: score| level| scale| rating)?\s*(?:is|of|:|=|rated(?: at)?|at)?\s*(\d{1,2})\s*(?:\/\s*10|out of 10)/i.exec(text)
    ?? /\b(\d{1,2})\s*(?:\/\s*10|out of 10)\b/i.exec(text);
  if (pain && Number(pain[1]) <= 10) v.pain = { value: Number(pain[1]), text: `${pain[1]}/10` };
  return v;
}

/** Converts a vital to the unit a field asks for (by its name/description), when it names one. */
export function convertTemperature(value: number, from: 'F' | 'C', wanted: string): number {
  if (/\b(?:celsius|°c|deg c|_c\b|c\))/i.test(wanted) && from === 'F') return round1(((value - 32) * 5) / 9);
  if (/\b(?:fahrenheit|°f|deg f|_f\b|f\))/i.test(wanted) && from === 'C') return round1((value * 9) / 5 + 32);
  return value;
}

export function convertWeight(value: number, from: 'kg' | 'lb', wanted: string): number {
  if (/\b(?:kg|kilo)/i.test(wanted) && from === 'lb') return round1(value * 0.45359237);
  if (/\b(?:lb|lbs|pound)/i.test(wanted) && from === 'kg') return round1(value / 0.45359237);
  return value;
}

export function convertHeight(value: number, from: 'cm' | 'in' | 'm', wanted: string): number {
  const cm = from === 'cm' ? value : from === 'm' ? value * 100 : value * 2.54;
  if (/\bcm\b|centim/i.test(wanted)) return round1(cm);
  if (/\b(?:in|inch|inches)\b/i.test(wanted)) return round1(cm / 2.54);
  if (/\b(?:m|meters?|metres?)\b/i.test(wanted)) return Math.round(cm) / 100;
  return value;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
