/** Times in exported documents: the physician's local time with its zone, never UTC ISO. */

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * A moment as the physician reads it: `2026-11-21 10:30 CET` (date first, so day and month are
 * never confused, 24-hour time, the zone's short name or offset).
 */
export function localTime(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${pad(Number(get('hour')))}:${get('minute')} ${get('timeZoneName')}`;
}

export function signatureLine(name: string, ms: number, timeZone?: string): string {
  return `Electronically signed by ${name} on ${localTime(ms, timeZone)}`;
}
